// The whiteboard's side of the meeting socket, small and loaded with the meeting: it hears
// how the board stands, asks for it after every join (a late join, a reconnect), passes page updates
// to the board when one is open, and sends the host's requests. The editor itself (Excalidraw, Yjs)
// is in ./whiteboard-board.tsx, loaded only when a board is shown.
import { create } from 'zustand';
import type { WhiteboardBytes, WhiteboardState } from '@mooz/contract/whiteboard';
import { afterEveryJoin, useMeetingStore } from '../meeting-store';
import type { MeetingSocket } from '../services/handshake';
import { meetingToast } from '../services/meeting-toasts';
import { amHost, useRoomControls } from '../services/room-controls';
import { parseGroupRoomId } from '@mooz/contract/breakouts';
import type { RoomControls } from '@mooz/contract/realtime';

interface WhiteboardStore {
  board: WhiteboardState | null;
  /** This tab put the shown board aside to see the cameras (its own choice, not the class's). */
  setAside: boolean;
}

export const useWhiteboard = create<WhiteboardStore>()(() => ({ board: null, setAside: false }));

type UpdateListener = (page: number, update: Uint8Array, from: string) => void;
const listeners = new Set<UpdateListener>();
let socket: MeetingSocket | null = null;
/** Bumped with every join answered, so the open board fetches its page again after a reconnect. */
export const useWhiteboardEpoch = create<{ epoch: number }>()(() => ({ epoch: 0 }));

const here = (roomId: string) => roomId === useMeetingStore.getState().roomId;

function refresh() {
  const roomId = useMeetingStore.getState().roomId;
  if (!socket || !roomId) return;
  socket.emit('request:whiteboard_state', { roomId }, (res) => {
    if ('error' in res) return;
    if (here(res.roomId)) useWhiteboard.setState({ board: res });
    useWhiteboardEpoch.setState((s) => ({ epoch: s.epoch + 1 }));
  });
}

let unsubscribePhase: (() => void) | null = null;

/** Listens to the board on a newly opened socket (the signalling attaches it beside the room controls). */
export function attachWhiteboard(opened: MeetingSocket) {
  socket = opened;
  useWhiteboard.setState({ board: null, setAside: false });
  opened.on('action:whiteboard_state', (board) => {
    if (!here(board.roomId)) return;
    const before = useWhiteboard.getState().board;
    // The class is shown the board again (or another page): it comes back to the front.
    const setAside = useWhiteboard.getState().setAside && !!before?.shown && board.shown && before.page === board.page;
    useWhiteboard.setState({ board, setAside });
  });
  opened.on('action:whiteboard_update', ({ roomId, page, update, from }) => {
    if (!here(roomId)) return;
    const bytes = update instanceof Uint8Array ? update : new Uint8Array(update);
    for (const listener of listeners) listener(page, bytes, from);
  });
  // Each time this tab is (again) in the room, the board is asked for: a late join, a network blip.
  unsubscribePhase?.();
  unsubscribePhase = afterEveryJoin(refresh);
}

export function detachWhiteboard(closed: MeetingSocket) {
  if (socket !== closed) return;
  socket = null;
  unsubscribePhase?.();
  unsubscribePhase = null;
  useWhiteboard.setState({ board: null, setAside: false });
}

export function onWhiteboardUpdate(listener: UpdateListener): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** Whether this tab may draw on the board now (the server decides again on every update). */
/**
 * Whether this tab runs the board (shows it, turns its pages, says who draws): a host, or anyone in a
 * breakout group, which runs its own board (the server decides the same).
 */
export function runsBoard(controls: RoomControls | null = useRoomControls.getState().controls): boolean {
  return amHost(controls) || parseGroupRoomId(useMeetingStore.getState().roomId ?? '') !== null;
}

export function mayDraw(board: WhiteboardState | null): boolean {
  if (!board) return false;
  if (runsBoard()) return true;
  if (!board.shown) return false;
  return board.access === 'everyone' || (board.access === 'named' && board.writers.includes(useMeetingStore.getState().peerId));
}

function roomId() {
  return useMeetingStore.getState().roomId;
}

/** The page's whole document, as the server holds it. */
export function fetchPage(page: number): Promise<Uint8Array> {
  return new Promise((resolve, reject) => {
    const id = roomId();
    if (!socket || !id) return reject(new Error('offline'));
    socket.emit('request:whiteboard_sync', { roomId: id, page }, (res) => {
      if ('error' in res) return reject(new Error(res.error));
      resolve(res.update instanceof Uint8Array ? res.update : new Uint8Array(res.update));
    });
  });
}

/**
 * Sends one change to a page; false when no socket is up to take it. The server's refusal (drawing was
 * just locked) needs no answer here: the board's state says so and the editor turns read-only.
 */
export function sendUpdate(page: number, update: WhiteboardBytes): boolean {
  const id = roomId();
  if (!socket?.connected || !id) return false;
  socket.emit('request:whiteboard_update', { roomId: id, page, update });
  return true;
}

function hostRequest(event: 'request:whiteboard_show' | 'request:whiteboard_access' | 'request:whiteboard_page', payload: object) {
  const id = roomId();
  if (!socket || !id) return;
  (socket.emit as (...args: unknown[]) => void)(event, { roomId: id, ...payload }, (res: { error?: string } | undefined) => {
    if (res?.error) meetingToast.error(res.error);
  });
}

export const showWhiteboard = (shown: boolean) => hostRequest('request:whiteboard_show', { shown });
export const setWhiteboardAccess = (access: WhiteboardState['access'], writers: string[] = []) =>
  hostRequest('request:whiteboard_access', { access, writers });
export const addWhiteboardPage = () => hostRequest('request:whiteboard_page', { action: 'add' });
export const goToWhiteboardPage = (page: number) => hostRequest('request:whiteboard_page', { action: 'go', page });

/**
 * The board as the recording shows it (recording/composer.ts draws it like a shared screen): Excalidraw's
 * drawing canvas while the class is shown the board, null otherwise.
 */
export function whiteboardPicture(): HTMLCanvasElement | null {
  if (!useWhiteboard.getState().board?.shown) return null;
  return document.querySelector<HTMLCanvasElement>('[data-testid="whiteboard"] canvas.excalidraw__canvas:not(.interactive)');
}
