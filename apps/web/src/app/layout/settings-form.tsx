// The customiser's controls; loaded when the settings drawer first opens.
import type { ReactNode } from 'react';
import { Button, SegmentedControl, Select, Stack, Switch, Text } from '@mantine/core';
import { IconRefresh } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { toastPositions, useLayoutPreferences, type LayoutPreferences } from '../../lib/layout-preferences';

/** The preferences chosen from a list; each option's label is `{labelKey}.{option}`. */
const choices = {
  layout: { options: ['vertical', 'horizontal'], labelKey: 'settings.menuLayout', testId: 'setting-layout' },
  navbarType: {
    options: ['floating', 'sticky', 'static', 'hidden'],
    labelKey: 'settings.navbarType',
    testId: 'setting-navbar-type',
  },
  footerType: {
    options: ['static', 'sticky', 'hidden'],
    labelKey: 'settings.footerType',
    testId: 'setting-footer-type',
  },
  contentWidth: { options: ['boxed', 'full'], labelKey: 'settings.contentWidth', testId: 'setting-content-width' },
  toastPosition: { options: toastPositions, labelKey: 'settings.toastPosition', testId: 'setting-toast-position' },
} satisfies {
  [K in keyof LayoutPreferences]?: { options: readonly LayoutPreferences[K][]; labelKey: string; testId: string };
};

/** One preference chosen from its list: a segmented control for two options, a select for more. */
function Choice({ name }: { name: keyof typeof choices }) {
  const { t } = useTranslation();
  const value = useLayoutPreferences((state) => state[name]);
  const set = useLayoutPreferences((state) => state.set);
  const { options, labelKey, testId } = choices[name];
  const data = (options as readonly string[]).map((option) => ({ value: option, label: t(`${labelKey}.${option}`) }));
  const choose = (next: string | null) => {
    if (next && (options as readonly string[]).includes(next)) set({ [name]: next } as Partial<LayoutPreferences>);
  };
  if (options.length > 2) {
    return (
      <Select
        label={t(labelKey)}
        value={value}
        allowDeselect={false}
        onChange={choose}
        data={data}
        comboboxProps={{ withinPortal: false }}
        data-testid={testId}
      />
    );
  }
  return (
    <div>
      <Text size="sm" mb={6} id={`${testId}-label`}>
        {t(labelKey)}
      </Text>
      <SegmentedControl
        fullWidth
        aria-labelledby={`${testId}-label`}
        value={value}
        onChange={choose}
        data={data}
        data-testid={testId}
      />
    </div>
  );
}

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
        <Choice name="layout" />
        <Switch
          label={t('settings.menuCollapsed')}
          description={preferences.layout === 'horizontal' ? t('settings.menuCollapsed.verticalOnly') : undefined}
          disabled={preferences.layout === 'horizontal'}
          checked={preferences.menuCollapsed}
          onChange={(event) => preferences.set({ menuCollapsed: event.currentTarget.checked })}
          data-testid="setting-menu-collapsed"
        />
        <Choice name="navbarType" />
        <Choice name="footerType" />
        <Choice name="contentWidth" />
      </Section>
      <Section title={t('settings.notifications')}>
        <Choice name="toastPosition" />
      </Section>
      <Button variant="light" leftSection={<IconRefresh size={16} />} onClick={preferences.reset}>
        {t('settings.reset')}
      </Button>
    </Stack>
  );
}
