// Asks before an admin action that cannot be taken back silently (deactivating, refunding): what will
// happen, in words, with the action's own name on the button.
import type { ReactNode } from 'react';
import { Button, Group, Modal, Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';

export function ConfirmDialog({ opened, title, children, confirmLabel, color = 'red', busy, onConfirm, onClose }: {
  opened: boolean;
  title: string;
  children: ReactNode;
  confirmLabel: string;
  color?: string;
  busy: boolean;
  onConfirm: () => void;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  return (
    <Modal opened={opened} onClose={onClose} title={title} centered radius="lg" data-testid="confirm-dialog">
      <Stack gap="lg">
        <Text size="sm">{children}</Text>
        <Group justify="flex-end" gap="sm">
          <Button variant="default" onClick={onClose} disabled={busy}>
            {t('common.cancel')}
          </Button>
          <Button color={color} onClick={onConfirm} loading={busy} data-testid="confirm-action">
            {confirmLabel}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
