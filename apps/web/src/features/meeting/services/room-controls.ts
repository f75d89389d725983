// Running a class from the client's side: raised hands, the host's controls and the lobby.
// The server decides everything; this file listens to what it says on the meeting's socket, keeps it
// in its own small store, obeys the host (turns the microphone, camera or screen off) and sends the
// requests the components make. The signalling attaches it to each socket it opens.
import i18n from 'i18next';
import { create } from 'zustand';
import { fillMessage, messages } from '@mooz/contract/messages';
import type { LobbyEntry, LobbyWait, ModerationAction, RoomControls } from '@mooz/contract/realtime';
import { translateServerMessage } from '../../../lib/server-message';
import { useMeetingStore } from '../meeting-store';
import type { MeetingSocket } from './handshake';
import { stopScreenShare, toggleCamera, toggleMicrophone } from './local-media';
import { meetingToast } from './meeting-toasts';
import { hasLiveTrack } from './media';
import type { Mesh } from './mesh';

interface RoomControlsState {
  controls: RoomControls | null;
  /** For hosts: who waits in the lobby, oldest first. */
  lobby: LobbyEntry[];
  /** This tab waits in the lobby of this room. */
  waiting: LobbyWait['lobby'] | null;
  /** The room was closed for this tab: removed by, or ended by, a host. */
  closed: { reason: 'removed' | 'ended'; byName: string } | null;
}

export const initialRoomControls = (): RoomControlsState => ({
  controls: null,
  lobby: [],
  waiting: null,
  closed: null,
});
export const useRoomControls = create<RoomControlsState>()(() => initialRoomControls());

const state = useRoomControls;
const meeting = useMeetingStore;
const say = (template: string, byName: string) =>
  translateServerMessage(i18n.t.bind(i18n), fillMessage(template, { name: byName }));

/** The socket of the meeting under way, for the requests below. */
let socket: MeetingSocket | null = null;

function microphoneOn(): boolean {
  const track = meeting
    .getState()
    .localStream?.getAudioTracks()
    .find((candidate) => candidate.readyState === 'live');
  return !!track?.enabled;
}

/** Whether this tab is one of the room's hosts (as the server says). */
export function amHost(controls: RoomControls | null = state.getState().controls): boolean {
  return !!controls?.hosts.includes(meeting.getState().peerId);
}

/** Whether this tab may not turn its microphone on (locked by a host; a host's own never is). */
export function micLocked(controls: RoomControls | null = state.getState().controls): boolean {
  return !!controls?.unmuteLocked && !amHost(controls);
}

const moderatedText: Partial<Record<ModerationAction, string>> = {
  mute: messages.mutedBy,
  mute_all: messages.mutedBy,
  stop_camera: messages.cameraStoppedBy,
  stop_screen: messages.screenStoppedBy,
};

/**
 * Listens to the room's controls on a newly opened socket. `rejoin` sends the join again (once let in
 * from the lobby); `fail` ends the meeting with a reason (and leaves the room when in it).
 */
export function attachRoomControls(
  opened: MeetingSocket,
  { mesh, rejoin, fail }: { mesh: Mesh; rejoin: () => void; fail: (message: string) => void },
) {
  socket = opened;
  state.setState(initialRoomControls());
  const here = (roomId: string) => roomId === meeting.getState().roomId;

  opened.on('action:room_controls', (controls) => {
    if (!here(controls.roomId)) return;
    const wasLocked = micLocked();
    state.setState({ controls });
    // Locked now: the microphone goes off, and the reason is shown.
    if (!wasLocked && micLocked(controls)) {
      if (microphoneOn()) toggleMicrophone(mesh);
      meetingToast.medium(translateServerMessage(i18n.t.bind(i18n), messages.unmuteLocked));
    }
  });
  opened.on('action:lobby', ({ roomId, waiting }) => {
    if (!here(roomId)) return;
    const known = new Set(state.getState().lobby.map((entry) => entry.userId));
    state.setState({ lobby: waiting });
    for (const entry of waiting) {
      if (!known.has(entry.userId))
        meetingToast.medium(i18n.t('meeting.classroom.someoneWaiting', { name: entry.userName }));
    }
  });
  opened.on('action:moderated', ({ roomId, action, byName }) => {
    if (!here(roomId)) return;
    if ((action === 'mute' || action === 'mute_all') && microphoneOn()) toggleMicrophone(mesh);
    if (action === 'stop_camera' && hasLiveTrack(meeting.getState().localStream, 'video')) toggleCamera(mesh);
    if (action === 'stop_screen') stopScreenShare(mesh);
    const text = moderatedText[action];
    if (text) meetingToast.medium(say(text, byName));
  });
  opened.on('action:room_closed', ({ roomId, reason, byName }) => {
    if (!here(roomId)) return;
    state.setState({ closed: { reason, byName } });
    // Out of the room: the page shows why (classroom.tsx), after the toast.
    // An ad hoc meeting is no class: its people are told the meeting ended, or that they were removed from it.
    if (state.getState().controls?.classSession === false) {
      fail(i18n.t(reason === 'removed' ? 'meeting.classroom.removedFromMeetingBy' : 'meeting.classroom.meetingEndedBy', { name: byName }));
      return;
    }
    fail(fillMessage(reason === 'removed' ? messages.removedFromRoom : messages.classEndedBy, { name: byName }));
  });
  opened.on('action:lobby_decision', ({ roomId, admitted }) => {
    if (!here(roomId) || !state.getState().waiting) return;
    state.setState({ waiting: null });
    if (admitted) rejoin();
    else fail(messages.lobbyRefused);
  });
}

/** The join was answered with the lobby: this tab waits for a host. */
export function waitInLobby(lobby: LobbyWait['lobby']) {
  state.setState({ waiting: lobby });
}

export function detachRoomControls(closed: MeetingSocket) {
  if (socket === closed) socket = null;
}

function roomId() {
  return meeting.getState().roomId;
}

function send(
  event: 'request:raise_hand' | 'request:lower_hands' | 'request:moderate' | 'request:set_lobby' | 'request:admit',
  payload: object,
) {
  const id = roomId();
  if (!socket || !id) return;
  (socket.emit as (...args: unknown[]) => void)(
    event,
    { roomId: id, ...payload },
    (res: { error?: string } | undefined) => {
      if (res && 'error' in res && res.error) meetingToast.error(res.error);
    },
  );
}

/** Whether this tab's hand is up. */
export function handRaised(controls: RoomControls | null = state.getState().controls): boolean {
  const me = meeting.getState().peerId;
  return !!controls?.hands.some((hand) => hand.userId === me);
}

export const raiseHand = (raised: boolean) => send('request:raise_hand', { raised });
export const lowerHands = (userId?: string) => send('request:lower_hands', userId ? { userId } : {});
export const moderate = (action: ModerationAction, target?: string) =>
  send('request:moderate', target ? { action, target } : { action });
export const setLobby = (enabled: boolean) => send('request:set_lobby', { enabled });
export const admit = (userId: string, admitted: boolean) => send('request:admit', { userId, admit: admitted });

/** True (and says why) when the microphone may not be turned on now: a host locked it. */
export function refuseUnmute(): boolean {
  if (microphoneOn() || !micLocked()) return false;
  meetingToast.medium(translateServerMessage(i18n.t.bind(i18n), messages.unmuteLocked));
  return true;
}
