// The host menu's classroom tools: a new poll, and private chat between students on or off.
import { Menu } from '@mantine/core';
import { IconChartBar, IconMessageCircle, IconMessageCircleOff } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { moderate } from '../services/room-controls';
import { useClassroomTools } from './tools-link';

export function HostToolItems({ privateChatLocked }: { privateChatLocked: boolean }) {
  const { t } = useTranslation();
  return (
    <>
      <Menu.Item leftSection={<IconChartBar size={16} />} onClick={() => useClassroomTools.setState({ pollFormOpen: true })} data-testid="host-new-poll">
        {t('meeting.poll.new')}
      </Menu.Item>
      <Menu.Item
        leftSection={privateChatLocked ? <IconMessageCircle size={16} /> : <IconMessageCircleOff size={16} />}
        onClick={() => moderate(privateChatLocked ? 'unlock_private_chat' : 'lock_private_chat')}
        data-testid="host-private-chat"
      >
        {privateChatLocked ? t('meeting.private.allow') : t('meeting.private.lock')}
      </Menu.Item>
    </>
  );
}
