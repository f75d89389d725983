// The customiser drawer (opened from the navbar): the layout preferences a user may change.
import { lazy, Suspense } from 'react';
import { ActionIcon, Center, Drawer, Loader, Text, Title, Tooltip } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { IconSettings } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';

// The form's inputs (Select, SegmentedControl…) stay out of the first visit's download.
const loadSettingsForm = () => import('./settings-form');
const SettingsForm = lazy(async () => ({ default: (await loadSettingsForm()).SettingsForm }));

/** The navbar's gear button together with the drawer it opens. */
export function SettingsButton() {
  const { t } = useTranslation();
  const [opened, { open, close }] = useDisclosure(false);
  return (
    <>
      <Tooltip label={t('settings.title')}>
        <ActionIcon
          variant="subtle"
          color="gray"
          size="lg"
          radius="xl"
          onClick={open}
          onPointerEnter={() => void loadSettingsForm()}
          onFocus={() => void loadSettingsForm()}
          aria-label={t('settings.title')}
          data-testid="settings-button"
        >
          <IconSettings size={20} stroke={1.6} />
        </ActionIcon>
      </Tooltip>
      <Drawer
        opened={opened}
        onClose={close}
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
        <Suspense
          fallback={
            <Center py="xl">
              <Loader size="sm" aria-label={t('common.loading')} />
            </Center>
          }
        >
          <SettingsForm />
        </Suspense>
      </Drawer>
    </>
  );
}
