// The side panel: who is here (with their link state; for a class's teacher, its live attendance) and the chats.
import { memo } from 'react';
import { Avatar, Badge, CloseButton, Group, ScrollArea, Stack, Tabs, Text } from '@mantine/core';
import { IconMessages, IconPlugConnectedX, IconUsers } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { useMeetingStore, type PanelTab } from '../meeting-store';
import { ChatView } from './chat-view';
import { PersonMenu } from './classroom';
import { HandsList, LobbyList, PersonBadges } from './classroom-lists';
import { LiveAttendance } from './live-attendance';
import { PrivateMessageButton } from '../classroom-tools/private-message-button';
import classes from '../meeting.module.css';

const statusColor = { signalling: 'yellow', connected: 'green', closed: 'gray', error: 'red' } as const;

function People() {
  const { t } = useTranslation();
  const peers = useMeetingStore((state) => state.peers);
  const userName = useMeetingStore((state) => state.userName);
  const peerId = useMeetingStore((state) => state.peerId);
  const people = Object.values(peers);
  return (
    <ScrollArea className={classes.panelBody} type="auto">
      {/* Who waits to come in (hosts) and the raised hands, in order (classroom.tsx). */}
      <LobbyList />
      <HandsList />
      <Stack gap={4} p="sm" component="ul" className={classes.peopleList} data-testid="people-list">
        <Group component="li" gap="sm" wrap="nowrap" className={classes.person}>
          <Avatar radius="xl" color="mooz" variant="filled" size={36}>
            {[...userName][0]?.toUpperCase() ?? '?'}
          </Avatar>
          <div className={classes.personText}>
            <Text size="sm" fw={600} truncate>
              {userName} ({t('meeting.you')})
            </Text>
            <Group gap={4} className={classes.personBadges} data-testid="person-badges">
              <PersonBadges peerId={peerId} />
            </Group>
          </div>
        </Group>
        {people.map((peer) => (
          <Group component="li" key={peer.peerId} gap="sm" wrap="nowrap" className={classes.person} data-testid="person">
            <Avatar radius="xl" size={36}>
              {[...peer.userName][0]?.toUpperCase() ?? '?'}
            </Avatar>
            {/* The badges go on a line of their own under the name: beside it, a host's or a raised
                hand's badge with the link state left a narrow panel room for "Wanda-…" only. */}
            <div className={classes.personText}>
              <Text size="sm" fw={500} truncate>
                {peer.userName}
              </Text>
              <Group gap={4} className={classes.personBadges} data-testid="person-badges">
                <PersonBadges peerId={peer.peerId} />
                {/* Said in words (with an icon when there is no media connection), not by colour alone. */}
                <Badge
                  size="sm"
                  variant="light"
                  color={statusColor[peer.status]}
                  leftSection={peer.status === 'error' ? <IconPlugConnectedX size={12} aria-hidden /> : undefined}
                  data-testid="person-media"
                  data-media={peer.status === 'connected' ? 'connected' : 'none'}
                >
                  {t(`meeting.status.${peer.status}`)}
                </Badge>
              </Group>
            </div>
            <PrivateMessageButton peerId={peer.peerId} name={peer.userName} />
            <PersonMenu peerId={peer.peerId} name={peer.userName} />
          </Group>
        ))}
      </Stack>
      <LiveAttendance />
    </ScrollArea>
  );
}

/** Memoised: it reads what it shows from the store, so the room page's re-renders need not redo it. */
export const SidePanel = memo(function SidePanel({ onClose }: { onClose: () => void }) {
  const { t } = useTranslation();
  const tab = useMeetingStore((state) => state.panelTab);
  const count = useMeetingStore((state) => Object.keys(state.peers).length + 1);
  const unread = useMeetingStore((state) => state.unread);

  return (
    <aside className={classes.panel} aria-label={t('meeting.controls.panel')} data-testid="side-panel">
      <Tabs
        value={tab}
        onChange={(value) => value && useMeetingStore.setState({ panelTab: value as PanelTab, ...(value === 'chats' ? { unread: 0 } : {}) })}
        className={classes.panelTabs}
        keepMounted={false}
      >
        <Group justify="space-between" wrap="nowrap" px="sm" pt="xs">
          <Tabs.List style={{ flex: 1 }}>
            <Tabs.Tab value="people" leftSection={<IconUsers size={16} />} data-testid="tab-people">
              {t('meeting.panel.people')} ({count})
            </Tabs.Tab>
            <Tabs.Tab
              value="chats"
              leftSection={<IconMessages size={16} />}
              rightSection={unread > 0 ? <Badge size="xs" circle color="red">{unread}</Badge> : null}
              data-testid="tab-chats"
            >
              {t('meeting.panel.chats')}
            </Tabs.Tab>
          </Tabs.List>
          <CloseButton onClick={onClose} aria-label={t('meeting.panel.close')} />
        </Group>
        <Tabs.Panel value="people" className={classes.panelContent}>
          <People />
        </Tabs.Panel>
        <Tabs.Panel value="chats" className={classes.panelContent}>
          <ChatView testId="panel-chat" />
        </Tabs.Panel>
      </Tabs>
    </aside>
  );
});
