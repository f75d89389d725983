// The navbar's gear button. The drawer it opens (Mantine's Drawer and the settings form) loads when a
// pointer or the keyboard reaches the button, not with the first page.
// The drawer lives in the layout (SettingsDrawerHost), not beside the gear: choosing "Hidden" for the
// top bar moves the gear from the bar to the floating tools, and a drawer mounted beside it would close.
import { lazy, Suspense } from 'react';
import { IconSettings } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { create } from 'zustand';
import { BarButton } from './bar-button';

const loadDrawer = () => import('./settings-drawer');
const SettingsDrawer = lazy(async () => ({ default: (await loadDrawer()).SettingsDrawer }));

/** Mounted from the first open on (`used`), so the drawer can animate its closing. */
const useSettingsDrawer = create<{ opened: boolean; used: boolean }>()(() => ({ opened: false, used: false }));

export function SettingsButton() {
  const { t } = useTranslation();
  return (
    <BarButton
      label={t('settings.title')}
      onClick={() => useSettingsDrawer.setState({ opened: true, used: true })}
      onPointerEnter={() => void loadDrawer()}
      onFocus={() => void loadDrawer()}
      data-testid="settings-button"
    >
      <IconSettings size={20} stroke={1.6} />
    </BarButton>
  );
}

/** The one settings drawer of the layout, opened by whichever gear shows. */
export function SettingsDrawerHost() {
  const { opened, used } = useSettingsDrawer();
  // The drawer mounts already open, too late to note where focus was: give it back to the gear that
  // shows now (the bar's, or the floating one's after the bar was hidden).
  const closeAndRefocus = () => {
    useSettingsDrawer.setState({ opened: false });
    document.querySelector<HTMLElement>('[data-testid="settings-button"]')?.focus();
  };
  if (!used) return null;
  return (
    <Suspense fallback={null}>
      <SettingsDrawer opened={opened} onClose={closeAndRefocus} />
    </Suspense>
  );
}
