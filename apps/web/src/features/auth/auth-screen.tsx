// The frame of every account screen: what Mooz is on one side, the form card on the other. The
// highlights name only what a new user can do today.
import type { ReactNode } from 'react';
import { Box, Group, Paper, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { IconCalendarEvent, IconUsers, IconVideo } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { LogoMark } from '../../components/logo';
import classes from './auth-screen.module.css';

const highlights = [
  { icon: IconVideo, titleKey: 'auth.hero.live.title', textKey: 'auth.hero.live.text' },
  { icon: IconCalendarEvent, titleKey: 'auth.hero.batches.title', textKey: 'auth.hero.batches.text' },
  { icon: IconUsers, titleKey: 'auth.hero.meetings.title', textKey: 'auth.hero.meetings.text' },
] as const;

function HeroPanel() {
  const { t } = useTranslation();
  return (
    <Box className={classes.hero} visibleFrom="md" aria-labelledby="hero-title">
      <div className={classes.heroGlow} aria-hidden="true" />
      <Stack gap="xl" className={classes.heroContent}>
        <Text className={classes.heroEyebrow}>{t('auth.hero.eyebrow')}</Text>
        <Title order={2} id="hero-title" className={classes.heroTitle}>
          {t('auth.hero.title')}
        </Title>
        <Text className={classes.heroText}>{t('auth.hero.text')}</Text>
        <Stack gap="md" component="ul" className={classes.highlights}>
          {highlights.map(({ icon: Icon, titleKey, textKey }) => (
            <Group key={titleKey} component="li" gap="md" wrap="nowrap" align="flex-start">
              <ThemeIcon size={44} radius="md" className={classes.highlightIcon}>
                <Icon size={22} stroke={1.6} />
              </ThemeIcon>
              <div>
                <Text fw={600} c="white">
                  {t(titleKey)}
                </Text>
                <Text size="sm" className={classes.heroText}>
                  {t(textKey)}
                </Text>
              </div>
            </Group>
          ))}
        </Stack>
      </Stack>
    </Box>
  );
}

export function AuthScreen({
  title,
  subtitle,
  children,
  footer,
  titleId = 'auth-title',
}: {
  title: string;
  subtitle?: ReactNode;
  children: ReactNode;
  footer?: ReactNode;
  titleId?: string;
}) {
  return (
    <div className={classes.page}>
      <HeroPanel />
      <div className={classes.formColumn}>
        <Paper className={classes.formCard} radius="lg" p={{ base: 'lg', sm: 40 }} withBorder>
          <Stack gap={6} mb="xl">
            <LogoMark size={44} />
            <Title order={1} id={titleId} className={classes.formTitle}>
              {title}
            </Title>
            {subtitle && <Text c="dimmed">{subtitle}</Text>}
          </Stack>
          {children}
          {footer && (
            <Text ta="center" size="sm" mt="xl" c="dimmed">
              {footer}
            </Text>
          )}
        </Paper>
      </div>
    </div>
  );
}
