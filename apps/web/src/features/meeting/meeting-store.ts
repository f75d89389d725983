// The meeting's state (Jitsi-style: the feature owns its store; side effects live in services/, which
// write here; the store imports nothing from them). It holds media streams on purpose: they are what
// the UI shows. The peer links themselves stay in the meeting's mesh (services/mesh.ts).
import { create } from 'zustand';
import type { Room } from '@mooz/contract/realtime';
import type { RoomRecording } from '@mooz/contract/recordings';

/** Where a peer's link stands; the link (services/peer-link.ts) reports it, the tiles show it. */
export type PeerStatus = 'signalling' | 'connected' | 'closed' | 'error';

export interface ChatMessage {
  id: string;
  userLabel: string;
  text: string;
  /** True for one's own messages, false for received ones. */
  mine: boolean;
  at: number;
  /** A private message: to (one's own) or from (received) this person only. */
  privateWith?: { peerId: string; name: string };
}

/** Another participant of the meeting, as shown. */
export interface Peer {
  /** Its id in the room (the handshake's `sessionId`; the server's events call it `userId`). */
  peerId: string;
  userName: string;
  status: PeerStatus;
  /** This side was already in the room and started the link. */
  initiator: boolean;
  userStream: MediaStream | null;
  screenStream: MediaStream | null;
  /** The other side's stream ids, sent with every description: which incoming stream is the screen. */
  screenStreamId: string | null;
  userStreamId: string | null;
  /** Bumped when a stream gains or loses a track, so tiles re-render. */
  version: number;
}

export type MeetingPhase = 'idle' | 'connecting' | 'joined' | 'reconnecting' | 'failed' | 'left';
export type PanelTab = 'people' | 'chats';

export interface MeetingState {
  phase: MeetingPhase;
  /** Why joining failed, shown on the room screen. */
  failure: string | null;
  roomId: string | null;
  room: Room | null;
  userName: string;
  /** This tab's own peer id in the room. */
  peerId: string;
  localStream: MediaStream | null;
  screenStream: MediaStream | null;
  localVersion: number;
  peers: Record<string, Peer>;
  messages: ChatMessage[];
  panelOpen: boolean;
  panelTab: PanelTab;
  floatingChatOpen: boolean;
  unread: number;
  /** Whom the chat box writes to: a peer id for a private message, null for everyone. */
  chatTo: string | null;
  /** Whether the room is being recorded, and by whom, as the server says (`action:recording_state`). */
  recording: RoomRecording | null;
  /** The peers heard now (services/active-speaker.ts), and the one who spoke last above the others. */
  speaking: readonly string[];
  speakerId: string | null;
  /** The tile this person pinned: always on the stage, in full quality. */
  pinnedId: string | null;
  /** The others whose camera tiles are on the stage now (components/video-grid.tsx); the rest are paused. */
  onStage: readonly string[];
}

export const initialMeetingState = (): Omit<MeetingState, 'peerId' | 'userName'> => ({
  phase: 'idle',
  failure: null,
  roomId: null,
  room: null,
  localStream: null,
  screenStream: null,
  localVersion: 0,
  peers: {},
  messages: [],
  panelOpen: false,
  panelTab: 'people',
  floatingChatOpen: false,
  unread: 0,
  chatTo: null,
  recording: null,
  speaking: [],
  speakerId: null,
  pinnedId: null,
  onStage: [],
});

export const useMeetingStore = create<MeetingState>()(() => ({
  ...initialMeetingState(),
  userName: '',
  peerId: '',
}));

export function updatePeer(peerId: string, change: Partial<Peer> | ((peer: Peer) => Partial<Peer>)) {
  useMeetingStore.setState((state) => {
    const peer = state.peers[peerId];
    if (!peer) return state;
    const patch = typeof change === 'function' ? change(peer) : change;
    return { peers: { ...state.peers, [peerId]: { ...peer, ...patch } } };
  });
}

/** Whether a received chat should be announced: not when the chats are already in view. */
export function chatsInView(state: Pick<MeetingState, 'panelOpen' | 'panelTab' | 'floatingChatOpen'>): boolean {
  return (state.panelOpen && state.panelTab === 'chats') || state.floatingChatOpen;
}

export function openChats() {
  useMeetingStore.setState({ panelOpen: true, panelTab: 'chats', unread: 0 });
}

/** Opens the chats writing to one person privately. */
export function chatPrivatelyWith(peerId: string) {
  useMeetingStore.setState({ panelOpen: true, panelTab: 'chats', unread: 0, chatTo: peerId });
}

/**
 * Runs `run` now when this tab is in its room, and each time it is in a room again (a move between
 * rooms, a late join, a reconnect): what a meeting's socket asks for about the room as it stands.
 * Returns the function that stops it.
 */
export function afterEveryJoin(run: () => void): () => void {
  const stop = useMeetingStore.subscribe((state, previous) => {
    if (state.phase === 'joined' && previous.phase !== 'joined') run();
  });
  if (useMeetingStore.getState().phase === 'joined') run();
  return stop;
}
