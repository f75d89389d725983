// Running a class in the meeting's UI: the raise-hand toggle and the host's room menu in the
// controls bar, the hands, the lobby and each person's host menu in the People tab, and the screens of
// someone waiting in the lobby or whose class was closed. The server decides; services/room-controls.ts
// talks to it.
import { useEffect, useState, type ReactNode } from 'react';
import { ActionIcon, Badge, Button, Group, Loader, Menu, Modal, Stack, Text, Tooltip, VisuallyHidden } from '@mantine/core';
import {
  IconArrowLeft,
  IconDoorEnter,
  IconDoorExit,
  IconDotsVertical,
  IconHandStop,
  IconLock,
  IconLockOpen,
  IconMicrophoneOff,
  IconPlayerStop,
  IconScreenShareOff,
  IconSchool,
  IconUserMinus,
  IconVideoOff,
  IconVolumeOff,
} from '@tabler/icons-react';
import { useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import { fillMessage, messages } from '@mooz/contract/messages';
import { StatusPage } from '../../../components/status-page';
import { Hint } from '../../../components/hint';
import { paths } from '../../../config/paths';
import { translateServerMessage } from '../../../lib/server-message';
import { useMeetingStore } from '../meeting-store';
import { leaveRoom } from '../services/meeting';
import {
  admit,
  amHost,
  handRaised,
  lowerHands,
  moderate,
  raiseHand,
  setLobby,
  useRoomControls,
} from '../services/room-controls';
import { HostToolItems } from '../classroom-tools/host-tool-items';
import classes from '../meeting.module.css';

/** A yes/no question before something that cannot be undone. */
function Confirm({
  opened,
  text,
  onConfirm,
  onClose,
  testId,
}: {
  opened: boolean;
  text: string;
  onConfirm: () => void;
  onClose: () => void;
  testId: string;
}) {
  const { t } = useTranslation();
  return (
    <Modal opened={opened} onClose={onClose} title={t('meeting.classroom.confirm')} centered data-testid={testId}>
      <Stack>
        <Text>{text}</Text>
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            {t('common.cancel')}
          </Button>
          <Button
            color="red"
            onClick={() => {
              onClose();
              onConfirm();
            }}
            data-testid={`${testId}-yes`}
          >
            {t('meeting.classroom.confirm')}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}

/** The raise-hand toggle of the controls bar (also on the H key, outside text fields). */
export function HandButton({ size }: { size: number }) {
  const { t } = useTranslation();
  const controls = useRoomControls((state) => state.controls);
  const phase = useMeetingStore((state) => state.phase);
  const raised = handRaised(controls);
  useEffect(() => {
    if (phase !== 'joined') return;
    const onKey = (event: KeyboardEvent) => {
      const target = event.target as HTMLElement | null;
      if (event.key.toLowerCase() !== 'h' || event.ctrlKey || event.metaKey || event.altKey || event.repeat) return;
      if (target?.closest('input, textarea, select, [contenteditable="true"], [role="menu"], [role="dialog"]')) return;
      raiseHand(!raised);
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [phase, raised]);
  const label = raised ? t('meeting.classroom.lowerHand') : t('meeting.classroom.raiseHand');
  return (
    <Hint label={`${label} (H)`}>
      <ActionIcon
        size={size}
        radius="xl"
        variant={raised ? 'filled' : 'default'}
        color={raised ? 'yellow' : undefined}
        className={classes.control}
        onClick={() => raiseHand(!raised)}
        disabled={phase !== 'joined'}
        aria-label={label}
        aria-keyshortcuts="h"
        data-testid="toggle-hand"
        data-raised={raised || undefined}
      >
        <IconHandStop size={22} />
      </ActionIcon>
    </Hint>
  );
}

/** The host's menu for the whole room. */
export function HostMenu({ size }: { size: number }) {
  const { t } = useTranslation();
  const controls = useRoomControls((state) => state.controls);
  const waiting = useRoomControls((state) => state.lobby.length);
  const [ending, setEnding] = useState(false);
  if (!controls || !amHost(controls)) return null;
  return (
    <>
      <Menu position="top" withinPortal shadow="md">
        <Menu.Target>
          <Tooltip label={t('meeting.classroom.hostMenu')}>
            <ActionIcon
              size={size}
              radius="xl"
              variant="default"
              className={classes.control}
              aria-label={t('meeting.classroom.hostMenu')}
              data-testid="host-menu"
            >
              <IconSchool size={22} />
              {waiting > 0 && (
                <Badge size="xs" circle color="red" pos="absolute" top={-4} right={-4} aria-hidden>
                  {waiting}
                </Badge>
              )}
            </ActionIcon>
          </Tooltip>
        </Menu.Target>
        <Menu.Dropdown>
          <Menu.Item
            leftSection={<IconVolumeOff size={16} />}
            onClick={() => moderate('mute_all')}
            data-testid="host-mute-all"
          >
            {t('meeting.classroom.muteAll')}
          </Menu.Item>
          <Menu.Item
            leftSection={controls.unmuteLocked ? <IconLockOpen size={16} /> : <IconLock size={16} />}
            onClick={() => moderate(controls.unmuteLocked ? 'unlock_unmute' : 'lock_unmute')}
            data-testid="host-lock"
          >
            {controls.unmuteLocked ? t('meeting.classroom.unlockMics') : t('meeting.classroom.lockMics')}
          </Menu.Item>
          {!controls.classSession && (
            <Menu.Item
              leftSection={<IconDoorEnter size={16} />}
              onClick={() => setLobby(!controls.lobbyEnabled)}
              data-testid="host-lobby"
            >
              {controls.lobbyEnabled ? t('meeting.classroom.lobbyOff') : t('meeting.classroom.lobbyOn')}
            </Menu.Item>
          )}
          <HostToolItems privateChatLocked={controls.privateChatLocked} />
          {controls.hands.length > 0 && (
            <Menu.Item leftSection={<IconHandStop size={16} />} onClick={() => lowerHands()}>
              {t('meeting.classroom.lowerAll')}
            </Menu.Item>
          )}
          <Menu.Divider />
          <Menu.Item
            leftSection={<IconPlayerStop size={16} color="var(--mantine-color-red-filled)" aria-hidden />}
            onClick={() => setEnding(true)}
            data-testid="host-end-class"
          >
            {t('meeting.classroom.endClass')}
          </Menu.Item>
        </Menu.Dropdown>
      </Menu>
      <Confirm
        opened={ending}
        text={t('meeting.classroom.endClassConfirm')}
        onConfirm={() => moderate('end_class')}
        onClose={() => setEnding(false)}
        testId="confirm-end-class"
      />
    </>
  );
}

/** The host's menu for one participant (People tab). */
export function PersonMenu({ peerId, name }: { peerId: string; name: string }) {
  const { t } = useTranslation();
  const controls = useRoomControls((state) => state.controls);
  const [removing, setRemoving] = useState(false);
  if (!controls || !amHost(controls)) return null;
  const label = t('meeting.classroom.personMenu', { name });
  return (
    <>
      <Menu position="bottom-end" withinPortal shadow="md">
        <Menu.Target>
          <ActionIcon variant="subtle" color="gray" aria-label={label} title={label} data-testid="person-menu">
            <IconDotsVertical size={16} />
          </ActionIcon>
        </Menu.Target>
        <Menu.Dropdown>
          <Menu.Item
            leftSection={<IconMicrophoneOff size={16} />}
            onClick={() => moderate('mute', peerId)}
            data-testid="person-mute"
          >
            {t('meeting.classroom.mute')}
          </Menu.Item>
          <Menu.Item
            leftSection={<IconVideoOff size={16} />}
            onClick={() => moderate('stop_camera', peerId)}
            data-testid="person-stop-camera"
          >
            {t('meeting.classroom.stopCamera')}
          </Menu.Item>
          <Menu.Item
            leftSection={<IconScreenShareOff size={16} />}
            onClick={() => moderate('stop_screen', peerId)}
            data-testid="person-stop-screen"
          >
            {t('meeting.classroom.stopScreen')}
          </Menu.Item>
          {!controls.hosts.includes(peerId) && (
            <>
              <Menu.Divider />
              <Menu.Item
                leftSection={<IconUserMinus size={16} color="var(--mantine-color-red-filled)" aria-hidden />}
                onClick={() => setRemoving(true)}
                data-testid="person-remove"
              >
                {t('meeting.classroom.remove')}
              </Menu.Item>
            </>
          )}
        </Menu.Dropdown>
      </Menu>
      <Confirm
        opened={removing}
        text={t('meeting.classroom.removeConfirm', { name })}
        onConfirm={() => moderate('remove', peerId)}
        onClose={() => setRemoving(false)}
        testId="confirm-remove"
      />
    </>
  );
}

/** A small badge beside a name: the host, a raised hand (with its place in the order). */
export function PersonBadges({ peerId }: { peerId: string }) {
  const { t } = useTranslation();
  const controls = useRoomControls((state) => state.controls);
  const place = controls?.hands.findIndex((hand) => hand.userId === peerId) ?? -1;
  return (
    <>
      {controls?.hosts.includes(peerId) && (
        <Badge size="sm" variant="light" color="mooz">
          {t('meeting.classroom.host')}
        </Badge>
      )}
      {place >= 0 && <HandBadge place={place + 1} />}
    </>
  );
}

/** A raised hand with its place, for tiles and the people list. */
export function HandBadge({ place }: { place: number }) {
  const { t } = useTranslation();
  return (
    <Badge
      size="sm"
      color="yellow"
      autoContrast
      leftSection={<IconHandStop size={12} aria-hidden />}
      data-testid="hand-badge"
      data-place={place}
    >
      <span dir="ltr" aria-hidden>
        {place}
      </span>
      <VisuallyHidden>{`${t('meeting.classroom.handRaised')} (${place})`}</VisuallyHidden>
    </Badge>
  );
}

/** The raised hands in order (People tab), with "lower" for the host. */
export function HandsList() {
  const { t } = useTranslation();
  const controls = useRoomControls((state) => state.controls);
  if (!controls?.hands.length) return null;
  const host = amHost(controls);
  return (
    <Section
      title={t('meeting.classroom.hands')}
      action={
        host ? (
          <Button size="compact-xs" variant="subtle" onClick={() => lowerHands()} data-testid="lower-all-hands">
            {t('meeting.classroom.lowerAll')}
          </Button>
        ) : null
      }
      testId="hands-list"
    >
      {controls.hands.map((hand, i) => (
        <Group component="li" key={hand.userId} gap="xs" wrap="nowrap" data-testid="hand-entry">
          <HandBadge place={i + 1} />
          <Text size="sm" truncate style={{ flex: 1 }}>
            {hand.userName}
          </Text>
          {host && (
            <Button
              size="compact-xs"
              variant="default"
              onClick={() => lowerHands(hand.userId)}
              aria-label={t('meeting.classroom.lowerOne', { name: hand.userName })}
            >
              {t('meeting.classroom.lower')}
            </Button>
          )}
        </Group>
      ))}
    </Section>
  );
}

/** Who waits in the lobby, oldest first, with Admit and Refuse (hosts only). */
export function LobbyList() {
  const { t } = useTranslation();
  const controls = useRoomControls((state) => state.controls);
  const lobby = useRoomControls((state) => state.lobby);
  if (!lobby.length || !amHost(controls)) return null;
  return (
    <Section title={t('meeting.classroom.waiting', { count: lobby.length })} testId="lobby-list">
      {lobby.map((entry) => (
        <Group component="li" key={entry.userId} gap="xs" wrap="nowrap" data-testid="lobby-entry">
          <Text size="sm" truncate style={{ flex: 1 }}>
            {entry.userName}
          </Text>
          <Button
            size="compact-xs"
            onClick={() => admit(entry.userId, true)}
            aria-label={t('meeting.classroom.admitOne', { name: entry.userName })}
            data-testid="lobby-admit"
          >
            {t('meeting.classroom.admit')}
          </Button>
          <Button
            size="compact-xs"
            variant="default"
            onClick={() => admit(entry.userId, false)}
            aria-label={t('meeting.classroom.refuseOne', { name: entry.userName })}
            data-testid="lobby-refuse"
          >
            {t('meeting.classroom.refuse')}
          </Button>
        </Group>
      ))}
    </Section>
  );
}

function Section({
  title,
  action,
  testId,
  children,
}: {
  title: string;
  action?: ReactNode;
  testId: string;
  children: ReactNode;
}) {
  return (
    <section aria-label={title} data-testid={testId}>
      <Group justify="space-between" wrap="nowrap" px="sm" pt="sm">
        <Text size="xs" fw={700} tt="uppercase" c="dimmed">
          {title}
        </Text>
        {action}
      </Group>
      <Stack gap={6} p="sm" component="ul" className={classes.peopleList}>
        {children}
      </Stack>
    </section>
  );
}

/** The room header's note that microphones are locked. */
export function MicsLockedBadge() {
  const { t } = useTranslation();
  const locked = useRoomControls((state) => !!state.controls?.unmuteLocked);
  if (!locked) return null;
  return (
    <Badge color="yellow" autoContrast leftSection={<IconLock size={12} aria-hidden />} data-testid="mics-locked">
      {t('meeting.classroom.micsLocked')}
    </Badge>
  );
}

/** This tab waits for a host to let it in. */
export function LobbyScreen() {
  const { t } = useTranslation();
  const waiting = useRoomControls((state) => state.waiting);
  return (
    <div className={classes.centered}>
      <StatusPage
        icon={<Loader size={40} />}
        title={waiting?.roomName ?? t('meeting.classroom.lobbyTitle')}
        description={
          <span role="status" data-testid="lobby-waiting">
            {t('messages.waitingForHost', { defaultValue: messages.waitingForHost })}
          </span>
        }
        actions={
          <Button
            variant="default"
            leftSection={<IconArrowLeft size={16} className={classes.flipInRtl} />}
            onClick={() => {
              useRoomControls.setState({ waiting: null });
              leaveRoom();
            }}
            data-testid="lobby-cancel"
          >
            {t('common.cancel')}
          </Button>
        }
        testId="lobby-screen"
      />
    </div>
  );
}

/** This tab's class or ad hoc meeting was closed: removed by a host, or ended for everyone. */
export function RoomClosedScreen() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const closed = useRoomControls((state) => state.closed);
  // The controls last heard stay until the next room: they say whether this was a class or a meeting.
  const meetingRoom = useRoomControls((state) => state.controls?.classSession === false);
  if (!closed) return null;
  const removed = closed.reason === 'removed';
  const text = meetingRoom
    ? t(removed ? 'meeting.classroom.removedFromMeetingBy' : 'meeting.classroom.meetingEndedBy', { name: closed.byName })
    : translateServerMessage(t, fillMessage(removed ? messages.removedFromRoom : messages.classEndedBy, { name: closed.byName }));
  const endedTitle = meetingRoom ? t('meeting.classroom.meetingEndedTitle') : t('meeting.classroom.endedTitle');
  return (
    <div className={classes.centered}>
      <StatusPage
        icon={removed ? <IconUserMinus size={48} /> : <IconDoorExit size={48} />}
        color={removed ? 'red' : 'mooz'}
        title={removed ? t('meeting.classroom.removedTitle') : endedTitle}
        description={<span data-testid="room-closed-reason">{text}</span>}
        actions={
          <Button
            leftSection={<IconArrowLeft size={16} className={classes.flipInRtl} />}
            onClick={() => navigate(paths.meetings)}
          >
            {t('meeting.failed.back')}
          </Button>
        }
        testId={removed ? 'room-removed' : 'room-ended'}
      />
    </div>
  );
}
