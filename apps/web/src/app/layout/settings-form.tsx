// The customiser's controls; loaded when the settings drawer first opens.
import type { ReactNode } from 'react';
import { Button, SegmentedControl, Select, Stack, Switch, Text } from '@mantine/core';
import { IconRefresh } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { toastPositions, useLayoutPreferences, type ToastPosition } from '../../lib/layout-preferences';

function Section({ title, children }: { title: string; children: ReactNode }) {
  return (
    <Stack gap="xs">
      <Text size="xs" fw={700} tt="uppercase" c="dimmed" style={{ letterSpacing: '0.06em' }}>
        {title}
      </Text>
      {children}
    </Stack>
  );
}

export function SettingsForm() {
  const { t } = useTranslation();
  const preferences = useLayoutPreferences();
  return (
    <Stack gap="xl">
      <Section title={t('settings.appearance')}>
        <Switch
          label={t('settings.darkSkin')}
          checked={preferences.skin === 'dark'}
          onChange={(event) => preferences.set({ skin: event.currentTarget.checked ? 'dark' : 'light' })}
          data-testid="setting-dark-skin"
        />
        <Switch
          label={t('settings.rtl')}
          description={t('settings.rtl.description')}
          checked={preferences.rtl}
          onChange={(event) => preferences.set({ rtl: event.currentTarget.checked })}
          data-testid="setting-rtl"
        />
      </Section>
      <Section title={t('settings.layout')}>
        <Switch
          label={t('settings.menuCollapsed')}
          checked={preferences.menuCollapsed}
          onChange={(event) => preferences.set({ menuCollapsed: event.currentTarget.checked })}
          data-testid="setting-menu-collapsed"
        />
        <div>
          <Text size="sm" mb={6}>
            {t('settings.contentWidth')}
          </Text>
          <SegmentedControl
            fullWidth
            value={preferences.contentWidth}
            onChange={(value) => preferences.set({ contentWidth: value === 'full' ? 'full' : 'boxed' })}
            data={[
              { value: 'boxed', label: t('settings.contentWidth.boxed') },
              { value: 'full', label: t('settings.contentWidth.full') },
            ]}
          />
        </div>
      </Section>
      <Section title={t('settings.notifications')}>
        <Select
          label={t('settings.toastPosition')}
          value={preferences.toastPosition}
          allowDeselect={false}
          onChange={(value) => value && preferences.set({ toastPosition: value as ToastPosition })}
          data={toastPositions.map((position) => ({ value: position, label: t(`settings.toastPosition.${position}`) }))}
          comboboxProps={{ withinPortal: false }}
        />
      </Section>
      <Button variant="light" leftSection={<IconRefresh size={16} />} onClick={preferences.reset}>
        {t('settings.reset')}
      </Button>
    </Stack>
  );
}
