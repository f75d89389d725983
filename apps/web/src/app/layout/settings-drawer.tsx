// The customiser drawer: the layout preferences a user may change.
import '../../styles/mantine-more';
import { Drawer, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { SettingsForm } from './settings-form';

export function SettingsDrawer({ opened, onClose }: { opened: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  return (
    <Drawer
      opened={opened}
      onClose={onClose}
      position="right"
      size="sm"
      title={
        <div>
          <Title order={4}>{t('settings.title')}</Title>
          <Text size="sm" c="dimmed">
            {t('settings.subtitle')}
          </Text>
        </div>
      }
      closeButtonProps={{ 'aria-label': t('common.close') }}
      data-testid="settings-panel"
    >
      <SettingsForm />
    </Drawer>
  );
}
