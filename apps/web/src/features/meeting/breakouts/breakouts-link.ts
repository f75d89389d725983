// Breakout rooms on the meeting's socket: the split as the server says it is, where this person should
// be (the main room or a group: whereToBe, which the room's page follows), a host's message to every
// group, the one-minute warning, and the requests the components make. The signalling attaches it
// beside the classroom tools.
import i18n from 'i18next';
import { create } from 'zustand';
import { breakoutLimits, mainRoomOf, parseGroupRoomId, type BreakoutForm, type BreakoutPerson, type BreakoutView } from '@mooz/contract/breakouts';
import { randomId } from '../../../lib/random-id';
import { roomRequest } from '../classroom-tools/tools-link';
import { afterEveryJoin, useMeetingStore } from '../meeting-store';
import type { MeetingSocket } from '../services/handshake';
import { meetingToast } from '../services/meeting-toasts';
import { amHost } from '../services/room-controls';

interface BreakoutsState {
  /** The server has said how things stand since this tab joined its room (until then, nobody moves). */
  known: boolean;
  /** The main room's split while open (and the closed one, until this tab is back in the main room). */
  split: BreakoutView | null;
  /** For hosts: who in the main room is in no group. */
  unplaced: BreakoutPerson[];
  /** A timed split's time is up here (the server's word may be on its way). */
  timeUp: boolean;
  /** A host is choosing how to split the class. */
  formOpen: boolean;
  /** A host put the rooms' card away (the host menu brings it back). */
  cardHidden: boolean;
}

const initial = (): BreakoutsState => ({ known: false, split: null, unplaced: [], timeUp: false, formOpen: false, cardHidden: false });
export const useBreakouts = create<BreakoutsState>()(() => initial());

const meeting = useMeetingStore;
const breakouts = useBreakouts;
let socket: MeetingSocket | null = null;
let unsubscribePhase: (() => void) | null = null;
const timers: ReturnType<typeof setTimeout>[] = [];

/** The split while it is open here: not closed, not past its time (the server's word may be on its way). */
export const openSplit = ({ split, timeUp }: Pick<BreakoutsState, 'split' | 'timeUp'>) => (split && !split.closed && !timeUp ? split : null);
const ours = (mainRoomId: string) => mainRoomId === mainRoomOf(meeting.getState().roomId ?? '');

/**
 * The room this person should move to, or null to stay: a student goes to the group they are placed
 * in, and back to the main room when they are in none or the split is over; a host goes where they
 * choose, and back to the main room when the split is over.
 */
export function whereToBe(split: BreakoutView | null, timeUp: boolean, roomId: string, userId: number | null, host: boolean): string | null {
  const group = parseGroupRoomId(roomId);
  const open = openSplit({ split, timeUp });
  if (!open || (group && group.breakoutId !== open.id)) return group ? group.mainRoomId : null;
  if (host) return null;
  const mine = open.groups.find((g) => g.members.some((m) => m.userId === userId));
  if (mine) return mine.roomId === roomId ? null : mine.roomId;
  return group ? open.roomId : null;
}

function clearTimers() {
  for (const timer of timers.splice(0)) clearTimeout(timer);
}

/** A timed split: the one-minute warning, and the move back when its time is up. */
function watchTime(split: BreakoutView) {
  clearTimers();
  if (!split.endsAt || split.closed) return;
  const left = Date.parse(split.endsAt) - Date.now();
  if (left > breakoutLimits.warnBeforeMs) {
    timers.push(setTimeout(() => meetingToast.medium(i18n.t('meeting.breakouts.endingSoon')), left - breakoutLimits.warnBeforeMs));
  }
  timers.push(setTimeout(() => breakouts.setState({ timeUp: true }), Math.max(0, left)));
}

function show(split: BreakoutView | null, unplaced?: BreakoutPerson[]) {
  const before = breakouts.getState().split;
  breakouts.setState({
    known: true,
    split,
    timeUp: false,
    ...(unplaced ? { unplaced } : {}),
    // A new split brings the host's card back.
    ...(split && split.id !== before?.id ? { cardHidden: false } : {}),
  });
  if (split) watchTime(split);
  else clearTimers();
}

function refresh() {
  const roomId = meeting.getState().roomId;
  if (!socket || !roomId) return;
  socket.emit('request:breakouts_state', { roomId }, (res) => {
    if ('error' in res || meeting.getState().roomId !== roomId) return;
    show(res.breakouts, res.unplaced);
  });
}

/** A host's message to every group: a toast, and a line in the chat so it is not lost. */
function heard(fromName: string, text: string) {
  meetingToast.medium(i18n.t('meeting.breakouts.broadcastToast', { name: fromName, text }));
  meeting.setState((state) => ({
    messages: [...state.messages, { id: randomId(), userLabel: i18n.t('meeting.breakouts.toAllGroups', { name: fromName }), text, mine: false, at: Date.now() }],
  }));
}

export function attachBreakouts(opened: MeetingSocket) {
  socket = opened;
  clearTimers();
  breakouts.setState(initial());
  opened.on('action:breakouts', ({ roomId, breakouts: split }) => {
    if (!ours(roomId)) return;
    show(split);
    // A host's list of the people in no group follows each change.
    if (amHost()) refresh();
  });
  opened.on('action:breakouts_broadcast', ({ roomId, fromName, text }) => {
    if (ours(roomId)) heard(fromName, text);
  });
  // After every join (a move between rooms, a late join, a reconnect), the split as it stands.
  unsubscribePhase?.();
  unsubscribePhase = afterEveryJoin(refresh);
}

export function detachBreakouts(closed: MeetingSocket) {
  if (socket !== closed) return;
  socket = null;
  unsubscribePhase?.();
  unsubscribePhase = null;
  clearTimers();
  breakouts.setState(initial());
}

/**
 * How someone's leaving this room is told: while a split is open, one placed in another group went
 * there (the main room empties into its groups, and "left the meeting" would be wrong for each).
 */
export function departureText(name: string): string {
  const open = openSplit(breakouts.getState());
  const group = open?.groups.findIndex((g) => g.roomId !== meeting.getState().roomId && g.members.some((m) => m.userName === name)) ?? -1;
  return group >= 0 ? i18n.t('meeting.breakouts.wentToGroup', { name, group: i18n.t('meeting.breakouts.group', { number: group + 1 }) }) : i18n.t('meeting.toast.left', { name });
}

/** A host: who in the main room is in no group now (for a split by hand). */
export const refreshBreakouts = refresh;

export async function openBreakouts(form: BreakoutForm): Promise<void> {
  const res = await roomRequest<{ breakouts: BreakoutView }>('request:breakouts_open', { breakouts: form });
  show(res.breakouts);
  breakouts.setState({ formOpen: false });
  refresh();
}

export const chooseGroup = (group: number) =>
  roomRequest<{ breakouts: BreakoutView }>('request:breakouts_choose', { group }).then(
    (res) => show(res.breakouts),
    () => undefined,
  );

export const moveToGroup = (userId: number, group: number) =>
  roomRequest<{ breakouts: BreakoutView }>('request:breakouts_move', { userId, group }).then(
    (res) => show(res.breakouts),
    () => undefined,
  );

export const broadcastToGroups = (text: string) => roomRequest('request:breakouts_broadcast', { text }).then(() => true, () => false);

export const closeBreakouts = () => roomRequest('request:breakouts_close', {}).catch(() => undefined);
