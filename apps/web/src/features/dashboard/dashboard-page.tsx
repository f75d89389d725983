// Where a signed-in user lands: a greeting, their dashboard (a student's learning, a
// teacher's teaching, both for admins with a picker), and quick links to the areas their rules open
// to them. An account opened within the last day is welcomed, not welcomed "back".
import '../../styles/mantine-more';
import { Badge, Card, Group, SimpleGrid, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { IconArrowRight } from '@tabler/icons-react';
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import { useAbility } from '../../lib/ability';
import { useStoredUser } from '../../lib/use-stored-auth';
import { descriptionKeyOf, visibleNavigation } from '../../config/navigation';
import { AdminDashboards } from './admin-dashboards';
import { StudentDashboard } from './student-dashboard';
import { TeacherDashboard } from './teacher-dashboard';
import classes from './dashboard-page.module.css';

/** How long after sign-up an account counts as new. */
const newAccountMs = 24 * 3600_000;

export function DashboardPage() {
  const { t } = useTranslation();
  const ability = useAbility();
  const user = useStoredUser();
  const areas = visibleNavigation((action, subject) => ability.can(action, subject)).filter(
    (item) => item.id !== 'dashboard',
  );
  const name = user?.first_name ?? user?.email ?? '';
  const role = user?.role ?? user?.user_type;
  const joined = typeof user?.date_joined === 'string' ? new Date(user.date_joined).getTime() : NaN;
  const isNew = Date.now() - joined < newAccountMs;
  const greeting = isNew
    ? name ? t('dashboard.greetingNew', { name }) : t('dashboard.greetingNewAnonymous')
    : name ? t('dashboard.greeting', { name }) : t('dashboard.greetingAnonymous');

  return (
    <Stack gap="xl" data-testid="dashboard">
      <Card radius="lg" p="xl" className={classes.welcome}>
        <Group justify="space-between" align="flex-start" wrap="wrap">
          <div>
            <Title order={1} size="h2" c="white" data-testid="greeting">
              {greeting}
            </Title>
            <Text mt={6} className={classes.welcomeText}>
              {isNew ? t('dashboard.subtitleNew') : t('dashboard.subtitle')}
            </Text>
          </div>
          {role && (
            <Badge size="lg" variant="white" color="mooz">
              {t(`user.role.${role}`)}
            </Badge>
          )}
        </Group>
      </Card>
      {ability.can('read', 'User') && ability.can('read', 'TeacherDashboard') && ability.can('read', 'StudentDashboard') ? (
        <AdminDashboards />
      ) : ability.can('read', 'TeacherDashboard') ? (
        <TeacherDashboard />
      ) : ability.can('read', 'StudentDashboard') ? (
        <StudentDashboard />
      ) : null}
      <nav aria-labelledby="quick-links-title">
        <Title order={2} size="h3" mb="md" id="quick-links-title">
          {t('dashboard.quickLinks')}
        </Title>
        <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }} spacing="lg">
          {areas.map((item) => {
            const Icon = item.icon;
            return (
              <Card
                key={item.id}
                component={Link}
                to={item.path}
                radius="lg"
                p="lg"
                withBorder
                className={classes.areaCard}
                data-testid={`area-${item.id}`}
              >
                <Group justify="space-between" align="flex-start" wrap="nowrap">
                  <ThemeIcon size={48} radius="md" variant="light">
                    <Icon size={26} stroke={1.5} />
                  </ThemeIcon>
                  <IconArrowRight size={18} className={classes.arrow} aria-hidden="true" />
                </Group>
                {/* A heading under Quick links: the card's title, so read and listed as one. */}
                <Text component="h3" fw={600} size="lg" mt="md">
                  {t(item.labelKey)}
                </Text>
                <Text size="sm" c="dimmed" mt={4}>
                  {t(descriptionKeyOf(item, user?.user_type))}
                </Text>
              </Card>
            );
          })}
        </SimpleGrid>
      </nav>
    </Stack>
  );
}
