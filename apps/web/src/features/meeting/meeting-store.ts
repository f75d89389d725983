// The meeting's state (Jitsi-style: the feature owns its store; side effects live in services/).
// It holds non-serialisable objects on purpose: media streams and peer links are what the UI shows.
import { create } from 'zustand';
import type { Room } from '@mooz/contract/realtime';
import type { PeerLink, PeerStatus } from './services/peer-link';

export interface ChatMessage {
  id: string;
  userLabel: string;
  text: string;
  /** True for one's own messages, false for received ones (spec §3). */
  mine: boolean;
  at: number;
}

export interface Peer {
  userId: string;
  userName: string;
  status: PeerStatus;
  /** This side was already in the room and started the link. */
  initiator: boolean;
  link: PeerLink;
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
  sessionId: string;
  localStream: MediaStream | null;
  screenStream: MediaStream | null;
  localVersion: number;
  peers: Record<string, Peer>;
  messages: ChatMessage[];
  panelOpen: boolean;
  panelTab: PanelTab;
  floatingChatOpen: boolean;
  unread: number;
}

export const initialMeetingState = (): Omit<MeetingState, 'sessionId' | 'userName'> => ({
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
});

export const useMeetingStore = create<MeetingState>()(() => ({
  ...initialMeetingState(),
  userName: '',
  sessionId: '',
}));

export function updatePeer(userId: string, change: Partial<Peer> | ((peer: Peer) => Partial<Peer>)) {
  useMeetingStore.setState((state) => {
    const peer = state.peers[userId];
    if (!peer) return state;
    const patch = typeof change === 'function' ? change(peer) : change;
    return { peers: { ...state.peers, [userId]: { ...peer, ...patch } } };
  });
}

/** Whether a received chat should be announced: not when the chats are already in view. */
export function chatsInView(state: Pick<MeetingState, 'panelOpen' | 'panelTab' | 'floatingChatOpen'>): boolean {
  return (state.panelOpen && state.panelTab === 'chats') || state.floatingChatOpen;
}

export function openChats() {
  useMeetingStore.setState({ panelOpen: true, panelTab: 'chats', unread: 0 });
}
