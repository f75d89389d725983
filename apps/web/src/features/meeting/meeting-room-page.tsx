// /meeting/:roomId — the live meeting: video stage, controls, side panel (people, chats), floating
// chat, fullscreen and the invite coachmark. A class session's join button lands here directly.
import '../../styles/mantine-more';
import { useCallback, useEffect, useState } from 'react';
import { Badge, Button, Card, Drawer, Group, Loader, Stack, Text, TextInput, Title } from '@mantine/core';
import { useFullscreen } from '@mantine/hooks';
import { useMedia } from '../../lib/use-media';
import { IconArrowLeft, IconPlugConnectedX, IconRefresh, IconUsers, IconWifi } from '@tabler/icons-react';
import { useNavigate, useParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { messages } from '@mooz/contract/messages';
import { parseGroupRoomId } from '@mooz/contract/breakouts';
import { StatusPage } from '../../components/status-page';
import { paths } from '../../config/paths';
import { translateServerMessage } from '../../lib/server-message';
import { useStoredUser } from '../../lib/use-stored-auth';
import { savedUserName, saveUserName } from './identity';
import { limits } from '@mooz/contract/limits';
import { usePageTitle } from '../../lib/page-title';
import { useMeetingStore } from './meeting-store';
import { ControlsBar } from './components/controls-bar';
import { FloatingChat } from './components/floating-chat';
import { PollCard, PollFormHost } from './classroom-tools/poll-card';
import { BreakoutBadge, BreakoutsCard } from './breakouts/breakouts-card';
import { BreakoutFormModal } from './breakouts/breakout-form';
import { useBreakoutMoves } from './breakouts/breakout-moves';
import { SidePanel } from './components/side-panel';
import { VideoGrid } from './components/video-grid';
import { MicsLockedBadge } from './components/classroom-lists';
import { LobbyScreen, RoomClosedScreen } from './components/classroom-screens';
import { useRoomControls } from './services/room-controls';
import { RecordingNotice } from './recording/recording-notice';
import { WhiteboardStage } from './whiteboard/whiteboard-mount';
import { meetingBlocker, meetingBlockerText } from './services/media';
import { enterRoom, leaveRoom } from './services/meeting';
import { useToastsAbove } from './services/meeting-toasts';
import classes from './meeting.module.css';

/** How long one is alone in the room before the invite coachmark opens. */
const INVITE_COACHMARK_DELAY_MS = 1_000;

/** The longest the controls bar waits for an idle moment after the room's first drawing. */
const CONTROLS_IDLE_WAIT_MS = 300;

/**
 * False for the room's first drawing, true once the page is next idle (within CONTROLS_IDLE_WAIT_MS).
 * The controls bar (a dozen buttons, menus and the invite popover) is drawn after the stage rather than
 * with it: the others' offers reach a newcomer while its room is first drawn, and each of them waited
 * for that whole drawing on a busy machine (bench/first-frame: the third joiner). Waiting
 * for an idle moment lets the answers and candidates go first. Its row keeps its height meanwhile.
 */
function useAfterFirstDrawing(): boolean {
  const [drawn, setDrawn] = useState(false);
  useEffect(() => {
    const show = () => setDrawn(true);
    if (typeof window.requestIdleCallback === 'function') {
      const id = window.requestIdleCallback(show, { timeout: CONTROLS_IDLE_WAIT_MS });
      return () => window.cancelIdleCallback(id);
    }
    // No idle callbacks (Safari): the next task.
    const timer = setTimeout(show, 0);
    return () => clearTimeout(timer);
  }, []);
  return drawn;
}

// Module-level, so the memoised controls bar and side panel get the same functions on every render.
const togglePanel = () => useMeetingStore.setState((state) => ({ panelOpen: !state.panelOpen, ...(state.panelTab === 'chats' ? { unread: 0 } : {}) }));
const closePanel = () => useMeetingStore.setState({ panelOpen: false });

function NamePrompt({ onReady }: { onReady: (name: string) => void }) {
  const { t } = useTranslation();
  const [name, setName] = useState('');
  return (
    <div className={classes.centered}>
      <Card withBorder radius="lg" p="xl" w="100%" maw={420} component="form" onSubmit={(event) => {
        event.preventDefault();
        if (!name.trim()) return;
        saveUserName(name);
        onReady(name.trim());
      }}>
        <Stack>
          <Title order={1} fz="xl">
            {t('meeting.namePrompt.title')}
          </Title>
          <TextInput label={t('meeting.userName')} placeholder={t('meeting.userNamePlaceholder')} value={name} onChange={(e) => setName(e.currentTarget.value)} required maxLength={limits.nameMaxLength} autoFocus data-testid="prompt-user-name" />
          <Button type="submit" disabled={!name.trim()}>
            {t('meeting.namePrompt.submit')}
          </Button>
        </Stack>
      </Card>
    </div>
  );
}

export function MeetingRoomPage() {
  const { roomId = '' } = useParams();
  const { t } = useTranslation();
  const navigate = useNavigate();
  const user = useStoredUser();
  const [userName, setUserName] = useState(() => savedUserName(user));
  const [attempt, setAttempt] = useState(0);
  const [inviteOpened, setInviteOpened] = useState(false);
  const [inviteShown, setInviteShown] = useState(false);
  const phase = useMeetingStore((state) => state.phase);
  const failure = useMeetingStore((state) => state.failure);
  const room = useMeetingStore((state) => state.room);
  usePageTitle(room?.name);
  const peerCount = useMeetingStore((state) => Object.keys(state.peers).length);
  const panelOpen = useMeetingStore((state) => state.panelOpen);
  const floatingChatOpen = useMeetingStore((state) => state.floatingChatOpen);
  const wide = useMedia('(min-width: 62em)');
  const controlsDrawn = useAfterFirstDrawing();
  const toastsAbove = useToastsAbove();
  // The whole page goes fullscreen (not just the stage), so toasts and popovers stay visible.
  const { toggle: toggleFullscreen, fullscreen } = useFullscreen();
  const onFullscreen = useCallback(() => void toggleFullscreen(), [toggleFullscreen]);

  useEffect(() => {
    const blocker = meetingBlocker();
    if (blocker) {
      window.alert(meetingBlockerText(t, blocker));
      navigate(paths.meetings, { replace: true });
      return;
    }
    if (!userName || !roomId) return;
    void enterRoom(roomId, userName);
    return () => leaveRoom();
    // `t` changes with the language; that must not re-join the room.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [roomId, userName, attempt]);

  // Removed or ended by a host: the page says so instead of going back at once (classroom.tsx).
  const closedByHost = useRoomControls((state) => state.closed !== null);
  const inLobby = useRoomControls((state) => state.waiting !== null);
  useEffect(() => {
    if (phase === 'left' && !closedByHost) navigate(paths.meetings);
  }, [phase, navigate, closedByHost]);
  // Into a breakout group and back to the main room, as the split says.
  useBreakoutMoves(roomId, user?.id ?? null);

  // The coachmark shows once, when one arrives to an empty room, and goes when someone joins. Those
  // already in the room link to a newcomer right after its join is answered: the coachmark waits a
  // moment for them, so it does not open and close again (two renders of the whole controls bar)
  // while the newcomer's first video is on its way.
  useEffect(() => {
    if (peerCount > 0) {
      setInviteOpened(false);
      // Arrived to an occupied room: no coachmark later either, as when it used to flash open and shut.
      if (phase === 'joined') setInviteShown(true);
    }
    // Nobody is invited into a breakout group: its people are placed there.
    if (phase !== 'joined' || peerCount > 0 || inviteShown || parseGroupRoomId(roomId)) return;
    const timer = setTimeout(() => {
      setInviteShown(true);
      setInviteOpened(true);
    }, INVITE_COACHMARK_DELAY_MS);
    return () => clearTimeout(timer);
  }, [phase, peerCount, inviteShown, roomId]);

  if (!userName) return <NamePrompt onReady={setUserName} />;
  if (phase === 'left' && closedByHost) return <RoomClosedScreen />;
  if (phase === 'connecting' && inLobby) return <LobbyScreen />;

  if (phase === 'failed') {
    return (
      <div className={classes.centered}>
        <StatusPage
          icon={<IconPlugConnectedX size={48} />}
          color="red"
          title={t('meeting.failed.title')}
          description={<span data-testid="meeting-failure">{translateServerMessage(t, failure ?? messages.connectionFailed)}</span>}
          actions={
            <Group>
              <Button variant="default" leftSection={<IconArrowLeft size={16} className={classes.flipInRtl} />} onClick={() => navigate(paths.meetings)}>
                {t('meeting.failed.back')}
              </Button>
              <Button leftSection={<IconRefresh size={16} />} onClick={() => setAttempt((n) => n + 1)}>
                {t('meeting.failed.retry')}
              </Button>
            </Group>
          }
          testId="meeting-failed"
        />
      </div>
    );
  }

  return (
    <div className={classes.room} data-phase={phase} data-testid="meeting-room">
      <header className={classes.roomHeader}>
        <Group gap="sm" wrap="nowrap" style={{ minWidth: 0 }}>
          <Title order={1} fz={{ base: "md", sm: "lg" }} c="white" lineClamp={1} data-testid="meeting-title">
            {room?.name ?? t('meeting.joining')}
          </Title>
          {/* Always there, so screen readers announce the badge when it appears (a live region added with its text may not be). */}
          <div role="status" className={classes.statusSlot}>
            {phase === 'reconnecting' && (
              <Badge color="yellow" autoContrast leftSection={<IconWifi size={12} aria-hidden="true" />} data-testid="meeting-reconnecting">
                {t('meeting.reconnecting')}
              </Badge>
            )}
          </div>
          <RecordingNotice />
          <MicsLockedBadge />
          <BreakoutBadge />
        </Group>
        {/* The room is dark in both skins: the light skin's grey text would not read on it. */}
        <Badge variant="light" color="gray" c="gray.1" size="lg" leftSection={<IconUsers size={14} />} style={{ flexShrink: 0 }} data-testid="participant-count">
          {/* Numbers keep their order in right-to-left layouts. */}
          <span dir="ltr">{room ? t('meeting.participants', { present: peerCount + 1, capacity: room.capacity }) : peerCount + 1}</span>
        </Badge>
      </header>
      <div className={classes.body}>
        <main className={classes.main}>
          <VideoGrid />
          <WhiteboardStage />
          {phase === 'connecting' && (
            <div className={classes.overlay} role="status">
              <Loader color="white" />
              <Text c="white">{t('meeting.joining')}</Text>
            </div>
          )}
          {floatingChatOpen && <FloatingChat />}
          <PollCard />
          <PollFormHost />
          <BreakoutsCard />
          <BreakoutFormModal />
        </main>
        {wide && panelOpen && <SidePanel onClose={closePanel} />}
      </div>
      {!wide && (
        // Composed, so the dialog carries the panel's name (a Drawer without a title has none).
        <Drawer.Root opened={panelOpen} onClose={closePanel} position="right" size="100%">
          <Drawer.Overlay />
          <Drawer.Content aria-label={t('meeting.controls.panel')}>
            <Drawer.Body p={0}>
              <div className={classes.drawerPanel}>
                <SidePanel onClose={closePanel} />
              </div>
            </Drawer.Body>
          </Drawer.Content>
        </Drawer.Root>
      )}
      <footer className={classes.roomFooter} ref={toastsAbove}>
        {controlsDrawn && (
          <ControlsBar
            roomId={roomId}
            fullscreen={fullscreen}
            onFullscreen={onFullscreen}
            inviteOpened={inviteOpened}
            onInvite={setInviteOpened}
            onTogglePanel={togglePanel}
          />
        )}
      </footer>
    </div>
  );
}
