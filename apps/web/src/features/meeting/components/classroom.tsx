// Running a class in the meeting's UI: the raise-hand toggle and the host's room menu in the controls
// bar, and each person's host menu in the People tab (the lists are in classroom-lists.tsx, the lobby
// and closed-room screens in classroom-screens.tsx). The server decides; services/room-controls.ts
// talks to it.
import { useEffect, useState } from 'react';
import { ActionIcon, Badge, Button, Group, Menu, Modal, Stack, Text, Tooltip } from '@mantine/core';
import {
  IconDoorEnter,
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
import { useTranslation } from 'react-i18next';
import { CancelButton } from '../../../components/buttons';
import { Hint } from '../../../components/hint';
import { useMeetingStore } from '../meeting-store';
import {
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
          <CancelButton onClick={onClose} />
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
