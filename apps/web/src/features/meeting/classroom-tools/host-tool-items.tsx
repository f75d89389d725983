// The host menu's classroom tools: a new poll, breakout rooms, and private chat between students on or off.
import { Menu } from '@mantine/core';
import { IconChartBar, IconMessageCircle, IconMessageCircleOff, IconUsersGroup } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { moderate } from '../services/room-controls';
import { useClassroomTools } from './tools-link';
import { openSplit, useBreakouts } from '../breakouts/breakouts-link';

/** The split's card when one is open, else the form for a new one. */
const showBreakouts = () => useBreakouts.setState(openSplit(useBreakouts.getState()) ? { cardHidden: false } : { formOpen: true });

export function HostToolItems({ privateChatLocked }: { privateChatLocked: boolean }) {
  const { t } = useTranslation();
  return (
    <>
      <Menu.Item leftSection={<IconChartBar size={16} />} onClick={() => useClassroomTools.setState({ pollFormOpen: true })} data-testid="host-new-poll">
        {t('meeting.poll.new')}
      </Menu.Item>
      <Menu.Item leftSection={<IconUsersGroup size={16} />} onClick={showBreakouts} data-testid="host-breakouts">
        {t('meeting.breakouts.title')}
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
