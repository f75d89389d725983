// The meeting's controls: microphone, camera, screen, record (for the host), chats, people, fullscreen, invite, leave.
import { memo, type ReactNode } from 'react';
import { ActionIcon, Indicator } from '@mantine/core';
import { Hint } from '../../../components/hint';
import {
  IconLayoutSidebarRight,
  IconLock,
  IconMaximize,
  IconMessageCircle,
  IconMicrophone,
  IconMicrophoneOff,
  IconMinimize,
  IconPhoneOff,
  IconScreenShare,
  IconScreenShareOff,
  IconVideo,
  IconVideoOff,
} from '@tabler/icons-react';
import { useMedia } from '../../../lib/use-media';
import { useTranslation } from 'react-i18next';
import { useMeetingStore } from '../meeting-store';
import { hasLiveTrack } from '../services/media';
import { leaveRoom, startScreenShare, stopScreenShare, toggleCamera, toggleMicrophone } from '../services/meeting';
import { micLocked, refuseUnmute, useRoomControls } from '../services/room-controls';
import { HandButton, HostMenu } from './classroom';
import { RecordControl } from '../recording/record-control';
import { InviteCoachmark } from './invite-coachmark';
import { WhiteboardButton } from '../whiteboard/whiteboard-mount';
import { ReactionButton } from '../classroom-tools/reactions';
import classes from '../meeting.module.css';

/**
 * One round button. `active` only paints it (red when a device is off). `pressed` is for toggles
 * whose name stays the same (chats, side panel) and says whether they are open; buttons whose name
 * changes with their state ("Mute" / "Unmute", "Share screen" / "Stop sharing") say it in the name and
 * are not also marked pressed, as the ARIA authoring practices ask.
 */
function Control({ label, active = true, pressed, danger, onClick, testId, children, size }: {
  size: number;
  label: string;
  active?: boolean;
  pressed?: boolean;
  danger?: boolean;
  onClick: () => void;
  testId: string;
  children: ReactNode;
}) {
  return (
    <Hint label={label}>
      <ActionIcon
        size={size}
        radius="xl"
        variant={danger ? 'filled' : active ? 'default' : 'filled'}
        color={danger ? 'red' : active ? undefined : 'red.7'}
        className={classes.control}
        onClick={onClick}
        aria-label={label}
        aria-pressed={pressed}
        data-testid={testId}
      >
        {children}
      </ActionIcon>
    </Hint>
  );
}

/** Memoised: the room page re-renders for each peer that comes or goes; the controls need not. */
export const ControlsBar = memo(function ControlsBar({ roomId, fullscreen, onFullscreen, inviteOpened, onInvite, onTogglePanel }: {
  roomId: string;
  fullscreen: boolean;
  onFullscreen: () => void;
  inviteOpened: boolean;
  onInvite: (opened: boolean) => void;
  onTogglePanel: () => void;
}) {
  const { t } = useTranslation();
  const size = useMedia('(max-width: 30em)') ? 42 : 48;
  useMeetingStore((state) => state.localVersion);
  const localStream = useMeetingStore((state) => state.localStream);
  const screenStream = useMeetingStore((state) => state.screenStream);
  const floatingChatOpen = useMeetingStore((state) => state.floatingChatOpen);
  const panelOpen = useMeetingStore((state) => state.panelOpen);
  const unread = useMeetingStore((state) => state.unread);
  const chatsTabShown = useMeetingStore((state) => state.panelOpen && state.panelTab === 'chats');
  // Messages not read yet are counted on both ways to the chats, in the badge and
  // in the button's name, so the count is not missed once the chat toast has gone.
  const withUnread = (label: string) => (unread > 0 ? t('meeting.controls.withUnread', { label, count: unread }) : label);
  const microphone = localStream?.getAudioTracks().find((track) => track.readyState === 'live');
  const micOn = !!microphone?.enabled;
  // A host locked microphones: off, and the button says why (room-controls.ts).
  const locked = micLocked(useRoomControls((state) => state.controls)) && !micOn;
  const cameraOn = hasLiveTrack(localStream, 'video');
  const sharing = hasLiveTrack(screenStream, 'video');

  return (
    <div className={classes.controls} role="toolbar" aria-label={t('meeting.controls.label')} data-testid="meeting-controls">
      <Indicator label={<IconLock size={10} aria-hidden />} size={16} disabled={!locked} color="orange" offset={6}>
        <Control
          size={size}
          label={locked ? t('meeting.classroom.micLocked') : micOn ? t('meeting.controls.mute') : t('meeting.controls.unmute')}
          active={micOn}
          onClick={() => refuseUnmute() || toggleMicrophone()}
          testId="toggle-mic"
        >
          {micOn ? <IconMicrophone size={22} /> : <IconMicrophoneOff size={22} />}
        </Control>
      </Indicator>
      <Control size={size} label={cameraOn ? t('meeting.controls.cameraOff') : t('meeting.controls.cameraOn')} active={cameraOn} onClick={toggleCamera} testId="toggle-camera">
        {cameraOn ? <IconVideo size={22} /> : <IconVideoOff size={22} />}
      </Control>
      <Control
        size={size}
        label={sharing ? t('meeting.controls.stopSharing') : t('meeting.controls.shareScreen')}
        onClick={() => (sharing ? stopScreenShare() : void startScreenShare())}
        testId="toggle-screen"
      >
        {sharing ? <IconScreenShareOff size={22} /> : <IconScreenShare size={22} />}
      </Control>
      <HandButton size={size} />
      <ReactionButton size={size} />
      <RecordControl roomId={roomId} size={size} />
      <HostMenu size={size} />
      <WhiteboardButton size={size} />
      <Indicator label={unread} size={18} disabled={unread === 0 || floatingChatOpen} color="red" offset={6}>
        <Control
          size={size}
          label={withUnread(t('meeting.controls.chat'))}
          pressed={floatingChatOpen}
          onClick={() => useMeetingStore.setState({ floatingChatOpen: !floatingChatOpen, ...(floatingChatOpen ? {} : { unread: 0 }) })}
          testId="toggle-floating-chat"
        >
          <IconMessageCircle size={22} />
        </Control>
      </Indicator>
      <Indicator label={unread} size={18} disabled={unread === 0 || chatsTabShown || floatingChatOpen} color="red" offset={6}>
        <Control
          size={size}
          label={chatsTabShown || floatingChatOpen ? t('meeting.controls.panel') : withUnread(t('meeting.controls.panel'))}
          pressed={panelOpen}
          onClick={onTogglePanel}
          testId="toggle-panel"
        >
          <IconLayoutSidebarRight size={22} className={classes.flipInRtl} />
        </Control>
      </Indicator>
      <span className={classes.hideOnPhone}>
        <Control size={size} label={fullscreen ? t('meeting.controls.exitFullscreen') : t('meeting.controls.fullscreen')} onClick={onFullscreen} testId="toggle-fullscreen">
          {fullscreen ? <IconMinimize size={22} /> : <IconMaximize size={22} />}
        </Control>
      </span>
      <InviteCoachmark size={size} roomId={roomId} opened={inviteOpened} onChange={onInvite} />
      <Control size={size} label={t('meeting.controls.leave')} danger onClick={leaveRoom} testId="leave-meeting">
        <IconPhoneOff size={22} />
      </Control>
    </div>
  );
});
