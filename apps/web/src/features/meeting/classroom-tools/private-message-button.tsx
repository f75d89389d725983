// In the People list: write to this person privately (opens the chats with them chosen).
import { ActionIcon } from '@mantine/core';
import { IconMessageCircle } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { chatPrivatelyWith } from '../meeting-store';
import { useRoomControls } from '../services/room-controls';
import { mayWritePrivately } from './tools-link';

export function PrivateMessageButton({ peerId, name }: { peerId: string; name: string }) {
  const { t } = useTranslation();
  const allowed = mayWritePrivately(useRoomControls((state) => state.controls), peerId);
  if (!allowed) return null;
  const label = t('meeting.private.write', { name });
  return (
    <ActionIcon variant="subtle" color="gray" aria-label={label} title={label} onClick={() => chatPrivatelyWith(peerId)} data-testid="person-private-message">
      <IconMessageCircle size={16} />
    </ActionIcon>
  );
}
