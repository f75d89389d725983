// Reactions, private messages and polls on the meeting's socket: what the server says is kept in a
// small store (reactions float a few seconds; the room's poll as this person sees it), and the
// requests the components make go out here. The signalling attaches it beside the room controls.
import i18n from 'i18next';
import { create } from 'zustand';
import { classroomToolLimits, type PollForm, type PollView, type Reaction } from '@mooz/contract/classroom-tools';
import { apiRoutes } from '@mooz/contract/api-routes';
import { downloadFile } from '../../../lib/download';
import { randomId } from '../../../lib/random-id';
import { truncateForNotification } from '../chat';
import { afterEveryJoin, chatsInView, openChats, useMeetingStore } from '../meeting-store';
import type { MeetingSocket } from '../services/handshake';
import { meetingToast } from '../services/meeting-toasts';
import { amHost } from '../services/room-controls';
import type { RoomControls } from '@mooz/contract/realtime';

interface ToolsState {
  /** The reaction floating over each peer's tile now (this tab's own under its own peer id). */
  reactions: Record<string, { reaction: Reaction; key: number }>;
  /** The room's latest poll as this person sees it. */
  poll: PollView | null;
  /** This person put the poll card away (it comes back with the next poll or its results). */
  pollHidden: boolean;
  /** A host is writing a new poll. */
  pollFormOpen: boolean;
}

export const useClassroomTools = create<ToolsState>()(() => ({ reactions: {}, poll: null, pollHidden: false, pollFormOpen: false }));

const meeting = useMeetingStore;
const tools = useClassroomTools;
let socket: MeetingSocket | null = null;
let unsubscribePhase: (() => void) | null = null;
const here = (roomId: string) => roomId === meeting.getState().roomId;
const timers = new Map<string, ReturnType<typeof setTimeout>>();
let reactionKey = 0;

function float(peerId: string, reaction: Reaction) {
  reactionKey += 1;
  const key = reactionKey;
  tools.setState((state) => ({ reactions: { ...state.reactions, [peerId]: { reaction, key } } }));
  clearTimeout(timers.get(peerId));
  timers.set(
    peerId,
    setTimeout(() => {
      timers.delete(peerId);
      tools.setState((state) => {
        if (state.reactions[peerId]?.key !== key) return state;
        const { [peerId]: _gone, ...rest } = state.reactions;
        return { reactions: rest };
      });
    }, classroomToolLimits.reactionShowMs),
  );
}

/** A poll from the server: a broadcast carries no one's own answer, so the one known here is kept. */
function showPoll(poll: PollView) {
  const before = tools.getState().poll;
  const mine = poll.mine ?? (before?.id === poll.id ? before.mine : null);
  // A new poll, or results just shown, come back to the front.
  const hidden = tools.getState().pollHidden && before?.id === poll.id && before.resultsShown === poll.resultsShown && before.closed === poll.closed;
  tools.setState({ poll: { ...poll, mine }, pollHidden: hidden });
}

function refresh() {
  const roomId = meeting.getState().roomId;
  if (!socket || !roomId) return;
  socket.emit('request:poll_state', { roomId }, (res) => {
    if ('error' in res || !here(roomId)) return;
    if (res.poll) showPoll(res.poll);
  });
}

export function attachClassroomTools(opened: MeetingSocket) {
  socket = opened;
  tools.setState({ reactions: {}, poll: null, pollHidden: false, pollFormOpen: false });
  opened.on('action:reaction', ({ roomId, from, reaction }) => {
    if (here(roomId)) float(from, reaction);
  });
  opened.on('action:private_message', ({ roomId, from, fromName, chat }) => {
    if (here(roomId)) receivePrivate(from, fromName, chat);
  });
  opened.on('action:poll', ({ roomId, poll }) => {
    if (here(roomId)) showPoll(poll);
  });
  // After every join (a late join, a reconnect), the room's poll as it stands.
  unsubscribePhase?.();
  unsubscribePhase = afterEveryJoin(refresh);
}

export function detachClassroomTools(closed: MeetingSocket) {
  if (socket !== closed) return;
  socket = null;
  unsubscribePhase?.();
  unsubscribePhase = null;
  for (const timer of timers.values()) clearTimeout(timer);
  timers.clear();
  tools.setState({ reactions: {}, poll: null, pollHidden: false, pollFormOpen: false });
}

/** A request about the room this tab is in; a refusal is shown as a toast and rejects. */
export function roomRequest<T>(event: string, payload: object): Promise<T> {
  const roomId = meeting.getState().roomId;
  return new Promise((resolve, reject) => {
    if (!socket?.connected || !roomId) return reject(new Error('offline'));
    (socket.emit as (...args: unknown[]) => void)(event, { roomId, ...payload }, (res: T | { error: string }) => {
      if (res && typeof res === 'object' && 'error' in res) {
        meetingToast.error(res.error);
        reject(new Error(res.error));
      } else resolve(res as T);
    });
  });
}

export function sendReaction(reaction: Reaction) {
  const own = meeting.getState().peerId;
  roomRequest('request:reaction', { reaction }).then(
    () => float(own, reaction),
    () => undefined,
  );
}

function receivePrivate(from: string, fromName: string, chat: { id: string; text: string }) {
  meeting.setState((state) => ({
    messages: [...state.messages, { id: chat.id, userLabel: fromName, text: chat.text, mine: false, at: Date.now(), privateWith: { peerId: from, name: fromName } }],
  }));
  if (chatsInView(meeting.getState())) return;
  meeting.setState((state) => ({ unread: state.unread + 1 }));
  meetingToast.chat(
    i18n.t('meeting.private.received', { label: fromName, text: truncateForNotification(chat.text) }),
    i18n.t('meeting.toast.openChats'),
    openChats,
  );
}

/** Whether this tab may write privately to `peerId`: anyone, or only a host when a host locked it (the server decides again). */
export function mayWritePrivately(controls: RoomControls | null, peerId: string): boolean {
  return !controls?.privateChatLocked || amHost(controls) || controls.hosts.includes(peerId);
}

/** A chat to one person; it shows at once and is taken back if the server refuses it. */
export function sendPrivate(to: string, text: string): boolean {
  const body = text.trim();
  const peer = meeting.getState().peers[to];
  if (!body || !peer) return false;
  const id = randomId();
  meeting.setState((state) => ({
    messages: [...state.messages, { id, userLabel: state.userName, text: body, mine: true, at: Date.now(), privateWith: { peerId: to, name: peer.userName } }],
  }));
  roomRequest('request:private_message', { to, chat: { id, text: body } }).catch(() =>
    meeting.setState((state) => ({ messages: state.messages.filter((m) => m.id !== id) })),
  );
  return true;
}

export async function openPoll(poll: PollForm): Promise<void> {
  const res = await roomRequest<{ poll: PollView }>('request:poll_open', { poll });
  showPoll(res.poll);
}

export async function answerPoll(pollId: number, answer: { choices?: number[]; text?: string }): Promise<void> {
  await roomRequest('request:poll_answer', { pollId, ...answer });
  const poll = tools.getState().poll;
  if (poll?.id === pollId) tools.setState({ poll: { ...poll, mine: { choices: answer.choices ?? [], text: answer.text?.trim() ?? '' } } });
}

export const closePoll = (pollId: number) => roomRequest('request:poll_close', { pollId }).catch(() => undefined);
export const revealPoll = (pollId: number, shown: boolean) => roomRequest('request:poll_reveal', { pollId, shown }).catch(() => undefined);

export function downloadPollAnswers() {
  const roomId = meeting.getState().roomId;
  if (!roomId) return;
  downloadFile(apiRoutes.sessions.pollAnswersCsv, { roomId }, 'poll-answers.csv').catch((error: unknown) =>
    meetingToast.error(error instanceof Error ? error.message : String(error)),
  );
}
