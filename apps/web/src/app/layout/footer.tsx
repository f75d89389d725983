import { Anchor, Group, Text } from '@mantine/core';
import { IconHeartFilled } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import classes from './layout.module.css';

export function Footer() {
  const { t } = useTranslation();
  return (
    <footer className={classes.footer}>
      {/* One run of its own direction, so "© 2026 Mooz" stays whole in a right-to-left layout. */}
      <Text size="sm" c="dimmed" dir="auto">
        © {new Date().getFullYear()}{' '}
        <Anchor href="/" fw={600} inherit>
          Mooz
        </Anchor>
        {' · '}
        {t('footer.rights')}
      </Text>
      <Group gap={4} wrap="nowrap">
        <Text size="sm" c="dimmed">
          {t('footer.tagline')}
        </Text>
        <IconHeartFilled size={14} color="var(--mooz-danger)" aria-hidden="true" />
      </Group>
    </footer>
  );
}
