// Pieces both dashboards use: a figure on a card, the next class with its Join/Start button, the
// loading skeleton shaped like a dashboard, and the failure card with its retry.
import type { ReactNode } from 'react';
import { Alert, Badge, Button, Card, Group, SimpleGrid, Skeleton, Stack, Text, ThemeIcon, Title, Tooltip } from '@mantine/core';
import { IconAlertCircle, IconCalendarEvent, IconRefresh, IconVideo } from '@tabler/icons-react';
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import type { Session } from '@mooz/contract/courses';
import { limits } from '@mooz/contract/limits';
import { paths } from '../../config/paths';
import { formatMoment } from './format';
import classes from './dashboard.module.css';

export function StatCard({ icon, label, value, hint, testId, raw }: {
  icon: ReactNode;
  label: string;
  value: string;
  hint?: ReactNode;
  testId: string;
  /** The unrounded figure, for tests and tools (data-value). */
  raw?: number;
}) {
  return (
    <Card radius="lg" withBorder p="lg" data-testid={testId}>
      <Group gap="md" wrap="nowrap" align="flex-start">
        <ThemeIcon size={44} radius="md" variant="light" aria-hidden="true">
          {icon}
        </ThemeIcon>
        {/* A term and its figure (not a heading over a paragraph, as large bold text in a <p> reads). */}
        <dl className={classes.statText}>
          <Text component="dt" size="sm" c="dimmed" fw={500}>
            {label}
          </Text>
          <Text component="dd" fz={28} fw={700} lh={1.2} data-testid={`${testId}-value`} data-value={raw}>
            {value}
          </Text>
          {hint && (
            <Text component="dd" size="xs" c="dimmed" mt={4}>
              {hint}
            </Text>
          )}
        </dl>
      </Group>
    </Card>
  );
}

/** The next class: when, what, and the way in as soon as the server says it can be joined. */
export function NextClassCard({ session, teaching, testId }: { session: Session | null; teaching: boolean; testId: string }) {
  const { t, i18n } = useTranslation();
  return (
    <Card radius="lg" withBorder p="lg" component="section" aria-labelledby={`${testId}-title`} data-testid={testId}>
      <Group gap="md" wrap="nowrap" align="flex-start">
        <ThemeIcon size={44} radius="md" variant="light" color={session?.status === 'live' ? 'green' : undefined} aria-hidden="true">
          <IconCalendarEvent size={24} />
        </ThemeIcon>
        <Stack gap={4} className={classes.statText}>
          <Group gap="xs">
            <Title order={2} size="h5" c="dimmed" fw={500} id={`${testId}-title`}>
              {t('dashboard.nextClass.title')}
            </Title>
            {session?.status === 'live' && (
              <Badge color="green" variant="light" size="sm">
                {t('sessions.status.live')}
              </Badge>
            )}
          </Group>
          {session ? (
            <>
              <Text fw={700} size="lg" className={classes.wrapAnywhere} data-testid={`${testId}-name`}>
                {session.title}
              </Text>
              <Text size="sm" c="mooz" fw={500} className={classes.wrapAnywhere}>
                {session.course_name}
              </Text>
              <Text size="sm" c="dimmed" data-testid={`${testId}-time`}>
                <time dateTime={session.starts_at} className={classes.nowrap}>{formatMoment(session.starts_at, i18n.language)}</time>
              </Text>
            </>
          ) : (
            <Text c="dimmed" size="sm" data-testid={`${testId}-none`}>
              {t('dashboard.nextClass.none')}
            </Text>
          )}
        </Stack>
      </Group>
      {session && (
        <Group mt="md" justify="flex-end">
          {session.can_join ? (
            <Button component={Link} to={paths.meeting(session.room_id)} color="green" leftSection={<IconVideo size={16} />} data-testid={`${testId}-join`}>
              {teaching && session.status !== 'live' ? t('dashboard.nextClass.start') : t('sessions.join')}
            </Button>
          ) : (
            <Tooltip label={t('sessions.opensAt', { minutes: limits.sessionJoinEarlyMinutes })}>
              <Button variant="default" disabled leftSection={<IconVideo size={16} />} data-testid={`${testId}-join-later`}>
                {teaching ? t('dashboard.nextClass.start') : t('sessions.join')}
              </Button>
            </Tooltip>
          )}
        </Group>
      )}
    </Card>
  );
}

export function DashboardLoading({ testId }: { testId: string }) {
  const { t } = useTranslation();
  return (
    <Stack gap="lg" aria-busy="true" aria-label={t('common.loading')} data-testid={testId}>
      <SimpleGrid cols={{ base: 1, sm: 2, lg: 4 }} spacing="lg">
        {Array.from({ length: 4 }, (_, i) => (
          <Card key={i} radius="lg" withBorder p="lg">
            <Group gap="md" wrap="nowrap">
              <Skeleton height={44} width={44} radius="md" />
              <Stack gap={8} style={{ flex: 1 }}>
                <Skeleton height={12} width="60%" radius="sm" />
                <Skeleton height={24} width="40%" radius="sm" />
              </Stack>
            </Group>
          </Card>
        ))}
      </SimpleGrid>
      <SimpleGrid cols={{ base: 1, md: 2 }} spacing="lg">
        <Card radius="lg" withBorder p="lg">
          <Skeleton height={16} width="40%" radius="sm" mb="md" />
          <Skeleton height={200} radius="md" />
        </Card>
        <Card radius="lg" withBorder p="lg">
          <Skeleton height={16} width="40%" radius="sm" mb="md" />
          <Stack gap="sm">
            {Array.from({ length: 4 }, (_, i) => (
              <Skeleton key={i} height={28} radius="sm" />
            ))}
          </Stack>
        </Card>
      </SimpleGrid>
    </Stack>
  );
}

export function DashboardError({ title, message, onRetry, retrying, testId }: {
  title: string;
  message: string;
  onRetry(): void;
  retrying: boolean;
  testId: string;
}) {
  const { t } = useTranslation();
  return (
    <Alert color="red" radius="lg" icon={<IconAlertCircle size={20} />} title={title} data-testid={testId} role="alert">
      <Stack gap="sm" align="flex-start">
        <Text size="sm" data-testid={`${testId}-message`}>
          {message}
        </Text>
        <Button size="sm" variant="filled" color="red" leftSection={<IconRefresh size={16} />} onClick={onRetry} loading={retrying} data-testid={`${testId}-retry`}>
          {t('common.retry')}
        </Button>
      </Stack>
    </Alert>
  );
}

/** A titled card holding a list or a figure group. */
export function Panel({ title, action, children, testId }: { title: string; action?: ReactNode; children: ReactNode; testId: string }) {
  return (
    <Card radius="lg" withBorder p="lg" component="section" aria-labelledby={`${testId}-title`} data-testid={testId}>
      <Group justify="space-between" align="baseline" mb="md" gap="xs">
        <Title order={2} size="h4" id={`${testId}-title`}>
          {title}
        </Title>
        {action}
      </Group>
      {children}
    </Card>
  );
}
