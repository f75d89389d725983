// The whiteboard's requests: the host shows the board, moves the class between pages and
// says who may draw; whoever may draw sends Yjs updates, which are checked (a decodable update of a page
// that exists; a student only on the page the class is on), stored, and passed to the rest of the room.
// Anything else is answered `Not allowed` (or `Check the form`) and changes nothing.
import type { FastifyInstance } from 'fastify';
import * as Y from 'yjs';
import { messages } from '@mooz/contract/messages';
import { parseGroupRoomId } from '@mooz/contract/breakouts';
import {
  whiteboardAccessPayload,
  whiteboardLimits,
  whiteboardPagePayload,
  whiteboardShowPayload,
  whiteboardStatePayload,
  whiteboardSyncPayload,
  whiteboardUpdateHeader,
  type WhiteboardState,
} from '@mooz/contract/whiteboard';
import type { RoomAdmission } from '../admission';
import { isHost } from '../moderation';
import type { RoomStore } from '../room-store';
import { roomChannel, type MeetingSocket, type RealtimeServer } from '../sockets';
import { boardStore, type Board } from './board-store';

type Reply = (res: unknown) => void;
type Handle = <P>(
  event:
    | 'request:whiteboard_state'
    | 'request:whiteboard_show'
    | 'request:whiteboard_access'
    | 'request:whiteboard_page'
    | 'request:whiteboard_sync'
    | 'request:whiteboard_update',
  run: (payload: P, reply: Reply) => Promise<void>,
) => void;

/** A Yjs update, checked: bytes within the limit that decode as one. */
function readUpdate(value: unknown): Uint8Array | null {
  const bytes = value instanceof Uint8Array ? value : value instanceof ArrayBuffer ? new Uint8Array(value) : null;
  if (!bytes || bytes.byteLength === 0 || bytes.byteLength > whiteboardLimits.updateMaxBytes) return null;
  try {
    Y.decodeUpdate(bytes);
    return bytes;
  } catch {
    return null;
  }
}

/** How long a board read from the database answers the update checks of this process without another read. */
const BOARD_CACHE_MS = 2_000;

export function whiteboardService(app: FastifyInstance, io: RealtimeServer, store: RoomStore, admission: RoomAdmission) {
  const boards = boardStore(app.db);
  // Every stroke is checked against the board (who may draw, which page): read once, then kept a
  // moment, so a stroke reaches the others without a database round trip. A change made here replaces
  // it at once; one made on another process is told here through the adapter (and the moment is short).
  const cached = new Map<string, { board: Board; at: number }>();
  async function boardOf(roomId: string): Promise<Board> {
    const hit = cached.get(roomId);
    if (hit && Date.now() - hit.at < BOARD_CACHE_MS) return hit.board;
    const board = await boards.find(roomId);
    cached.set(roomId, { board, at: Date.now() });
    return board;
  }
  const clustered = !!(app.config.redisUrl && app.redis);
  function changed(board: Board) {
    cached.set(board.roomId, { board, at: Date.now() });
    if (clustered) {
      try {
        io.serverSideEmit('whiteboard:changed', board.roomId);
      } catch (error) {
        app.log.warn({ err: error, roomId: board.roomId }, 'could not tell the other processes that a whiteboard changed');
      }
    }
    return board;
  }
  if (clustered) io.on('whiteboard:changed', (roomId: string) => void cached.delete(roomId));
  // Strokes are stored in the order they came, one room's after another, while the next ones are passed on.
  const storing = new Map<string, Promise<void>>();
  function keep(roomId: string, sessionId: number | null, page: number, update: Uint8Array): Promise<void> {
    const stored = (storing.get(roomId) ?? Promise.resolve()).then(() => boards.append(roomId, sessionId, page, update));
    const settled = stored.catch(() => undefined);
    storing.set(roomId, settled);
    void settled.then(() => storing.get(roomId) === settled && storing.delete(roomId));
    return stored;
  }

  async function state(board: Board): Promise<WhiteboardState> {
    let writers: string[] = [];
    if (board.access === 'named' && board.writers.length) {
      const named = new Set(board.writers);
      writers = (await store.list(board.roomId)).filter((m) => named.has(m.userId)).map((m) => m.peerId);
    }
    return { roomId: board.roomId, shown: board.shown, pages: board.pages, page: board.page, access: board.access, writers };
  }

  async function broadcast(board: Board) {
    io.to(roomChannel(board.roomId)).emit('action:whiteboard_state', await state(board));
  }

  return {
    /** The requests of one connection, run through its queue and rate limit (connection.ts). */
    serve(socket: MeetingSocket, handle: Handle) {
      const { user, peerId } = socket.data;

      /** Whether this connection hosts each room it asked about (a room's host does not change). */
      const hosting = new Map<string, boolean>();
      /** The room when this connection is in it now, and whether it is one of its hosts. */
      async function inRoom(roomId: string, checkPlace = true) {
        const joined = socket.data.rooms.get(roomId);
        if (!joined) return null;
        // The place may have gone to the same account elsewhere; a stroke trusts this connection's own
        // record of its rooms (cleared when the place goes), the rest asks the room.
        if (checkPlace) {
          const [self] = await store.members(roomId, [peerId]);
          if (self?.userId !== user.id) return null;
        }
        let host = hosting.get(roomId);
        if (host === undefined) {
          const known = await admission.lookup(roomId);
          if (!known) return null;
          // A breakout group runs its own board: everyone in it (placed there, or a host) may show it,
          // turn its pages and draw, as a class's host does.
          host = isHost(user, known.room) || parseGroupRoomId(roomId) !== null;
          hosting.set(roomId, host);
        }
        return { sessionId: joined.sessionId, host };
      }

      function mayDraw(board: Board, host: boolean, page: number) {
        if (page >= board.pages) return false;
        if (host) return true;
        // Students draw on the board shown, on the page the class is on.
        if (!board.shown || page !== board.page) return false;
        return board.access === 'everyone' || (board.access === 'named' && board.writers.includes(user.id));
      }

      handle<unknown>('request:whiteboard_state', async (payload, reply) => {
        const parsed = whiteboardStatePayload.safeParse(payload);
        if (!parsed.success) return reply({ error: messages.validationFailed });
        if (!(await inRoom(parsed.data.roomId))) return reply({ error: messages.notAllowed });
        const board = await boards.find(parsed.data.roomId);
        const now = await state(board);
        reply(now);
        // A named writer back with a new peer id: the hosts' list of who may draw shows it again.
        if (board.access === 'named' && board.writers.includes(user.id)) {
          socket.to(roomChannel(board.roomId)).emit('action:whiteboard_state', now);
        }
      });

      handle<unknown>('request:whiteboard_show', async (payload, reply) => {
        const parsed = whiteboardShowPayload.safeParse(payload);
        if (!parsed.success) return reply({ error: messages.validationFailed });
        const { roomId, shown } = parsed.data;
        const found = await inRoom(roomId);
        if (!found?.host) return reply({ error: messages.notAllowed });
        await broadcast(changed(await boards.change(roomId, found.sessionId, { shown })));
        reply({ shown });
      });

      handle<unknown>('request:whiteboard_access', async (payload, reply) => {
        const parsed = whiteboardAccessPayload.safeParse(payload);
        if (!parsed.success) return reply({ error: messages.validationFailed });
        const { roomId, access, writers } = parsed.data;
        const found = await inRoom(roomId);
        if (!found?.host) return reply({ error: messages.notAllowed });
        // Named by peer id, kept by account: a student who reloads (a new peer id) may still draw.
        const members = access === 'named' ? await store.members(roomId, writers) : [];
        if (members.some((m) => m === null)) return reply({ error: messages.notAllowed });
        const accounts = [...new Set(members.map((m) => m!.userId))];
        await broadcast(changed(await boards.change(roomId, found.sessionId, { access, writers: accounts })));
        reply({ done: true });
      });

      handle<unknown>('request:whiteboard_page', async (payload, reply) => {
        const parsed = whiteboardPagePayload.safeParse(payload);
        if (!parsed.success) return reply({ error: messages.validationFailed });
        const request = parsed.data;
        const found = await inRoom(request.roomId);
        if (!found?.host) return reply({ error: messages.notAllowed });
        let board: Board | null;
        if (request.action === 'add') {
          board = await boards.addPage(request.roomId, found.sessionId);
        } else {
          const current = await boards.find(request.roomId);
          board = request.page < current.pages ? await boards.change(request.roomId, found.sessionId, { page: request.page }) : null;
        }
        if (!board) return reply({ error: messages.validationFailed });
        await broadcast(changed(board));
        reply({ page: board.page });
      });

      handle<unknown>('request:whiteboard_sync', async (payload, reply) => {
        const parsed = whiteboardSyncPayload.safeParse(payload);
        if (!parsed.success) return reply({ error: messages.validationFailed });
        const { roomId, page } = parsed.data;
        const found = await inRoom(roomId);
        if (!found) return reply({ error: messages.notAllowed });
        const board = await boards.find(roomId);
        // A hidden board is the host's to prepare; the others see it when it is shown.
        if (page >= board.pages || (!found.host && !board.shown)) return reply({ error: messages.notAllowed });
        reply({ update: await boards.document(roomId, page) });
      });

      handle<{ roomId?: unknown; page?: unknown; update?: unknown }>('request:whiteboard_update', async (payload, reply) => {
        const header = whiteboardUpdateHeader.safeParse(payload);
        const update = readUpdate(payload?.update);
        if (!header.success || !update) return reply({ error: messages.validationFailed });
        const { roomId, page } = header.data;
        const found = await inRoom(roomId, false);
        if (!found) return reply({ error: messages.notAllowed });
        const board = await boardOf(roomId);
        if (!mayDraw(board, found.host, page)) return reply({ error: messages.notAllowed });
        // The others see the stroke now; the sender hears it is safe once it is stored. The storing
        // does not hold up this connection's next stroke.
        socket.to(roomChannel(roomId)).emit('action:whiteboard_update', { roomId, page, from: peerId, update });
        keep(roomId, found.sessionId, page, update).then(
          () => reply({ done: true }),
          (error: unknown) => {
            app.log.error({ err: error, roomId }, 'storing a whiteboard update failed');
            reply({ error: messages.unexpected });
          },
        );
      });
    },

    boards,
  };
}

export type WhiteboardService = ReturnType<typeof whiteboardService>;
