// The navbar's gear button. The drawer it opens (Mantine's Drawer and the settings form) loads when a
// pointer or the keyboard reaches the button, not with the first page.
import { lazy, Suspense, useRef, useState } from 'react';
import { ActionIcon } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { IconSettings } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';

const loadDrawer = () => import('./settings-drawer');
const SettingsDrawer = lazy(async () => ({ default: (await loadDrawer()).SettingsDrawer }));

export function SettingsButton() {
  const { t } = useTranslation();
  const [opened, { open, close }] = useDisclosure(false);
  // Mounted from the first open on, so the drawer can animate its closing.
  const [used, setUsed] = useState(false);
  const button = useRef<HTMLButtonElement>(null);
  // The drawer mounts already open, too late to note where focus was: give it back to the gear.
  const closeAndRefocus = () => {
    close();
    button.current?.focus();
  };
  return (
    <>
      <ActionIcon
        ref={button}
        variant="subtle"
        color="gray"
        size="lg"
        radius="xl"
        onClick={() => {
          setUsed(true);
          open();
        }}
        onPointerEnter={() => void loadDrawer()}
        onFocus={() => void loadDrawer()}
        title={t('settings.title')}
        aria-label={t('settings.title')}
        data-testid="settings-button"
      >
        <IconSettings size={20} stroke={1.6} />
      </ActionIcon>
      {used && (
        <Suspense fallback={null}>
          <SettingsDrawer opened={opened} onClose={closeAndRefocus} />
        </Suspense>
      )}
    </>
  );
}
