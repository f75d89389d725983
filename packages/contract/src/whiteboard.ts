// The whiteboard of a live class: its events in the signalling event map, and the saved
// boards of a session. Each page is one Yjs document; its updates travel as binary over the meeting's
// socket, through the server, which stores them and decides who may write. The host (a session's
// teacher, an ad hoc room's creator, an admin) shows or hides the board, moves the class between pages
// and says who may draw: everyone, nobody (the host alone), or the students it names.
import { z } from 'zod';
import { singleLineText } from './primitives';

export const whiteboardLimits = {
  /** Pages of one board. */
  maxPages: 20,
  /** Largest single Yjs update, in bytes (a long freehand stroke is a few KiB). */
  updateMaxBytes: 48 * 1024,
  /** Named writers of one board. */
  maxWriters: 200,
  /** Stored updates of one page before the server merges them into one. */
  compactAfterUpdates: 200,
  /** A saved page's PNG, in bytes. */
  snapshotMaxBytes: 4 * 1024 * 1024,
} as const;

export const whiteboardAccessModes = ['everyone', 'nobody', 'named'] as const;
export type WhiteboardAccess = (typeof whiteboardAccessModes)[number];

const roomId = z.string().trim().min(1).max(128);
const peerId = z.string().min(1).max(128);
const page = z.number().int().min(0).max(whiteboardLimits.maxPages - 1);

/** The host shows the board to everyone, or hides it (its drawing is kept). */
export const whiteboardShowPayload = z.object({ roomId, shown: z.boolean() });
/** The host says who may draw; `writers` (peer ids in the room) count only with `named`. */
export const whiteboardAccessPayload = z.object({
  roomId,
  access: z.enum(whiteboardAccessModes),
  writers: z.array(peerId).max(whiteboardLimits.maxWriters).default([]),
});
/** The host adds a page (and moves the class to it) or moves the class to page `page`. */
export const whiteboardPagePayload = z.discriminatedUnion('action', [
  z.object({ roomId, action: z.literal('add') }),
  z.object({ roomId, action: z.literal('go'), page }),
]);
export const whiteboardStatePayload = z.object({ roomId });
/** Asks for a page's whole document (on opening, after a reconnect). */
export const whiteboardSyncPayload = z.object({ roomId, page });
/** `update` is binary (a Yjs update); the server checks it decodes before storing it. */
export const whiteboardUpdateHeader = z.object({ roomId, page });

/** How the board of a room stands: to each joiner, and to everyone when it changes. */
export interface WhiteboardState {
  roomId: string;
  shown: boolean;
  /** How many pages; the class is on `page` (0-based). */
  pages: number;
  page: number;
  access: WhiteboardAccess;
  /** With `named`: the peer ids in the room now who may draw (hosts always may). */
  writers: string[];
}

/** A Yjs update as it travels: a Uint8Array (or Buffer) sent, an ArrayBuffer received in a browser. */
export type WhiteboardBytes = Uint8Array | ArrayBuffer;

export interface WhiteboardClientEvents {
  /** How the board stands now (after a join or a reconnect); a named writer's arrival is told to all. */
  'request:whiteboard_state': (payload: { roomId: string }, ack: (res: WhiteboardState | { error: string }) => void) => void;
  'request:whiteboard_show': (payload: { roomId: string; shown: boolean }, ack?: (res: { shown: boolean } | { error: string }) => void) => void;
  'request:whiteboard_access': (
    payload: { roomId: string; access: WhiteboardAccess; writers?: string[] },
    ack?: (res: { done: true } | { error: string }) => void,
  ) => void;
  'request:whiteboard_page': (
    payload: { roomId: string; action: 'add' } | { roomId: string; action: 'go'; page: number },
    ack?: (res: { page: number } | { error: string }) => void,
  ) => void;
  /** The page's document as one Yjs update (everything stored so far). */
  'request:whiteboard_sync': (payload: { roomId: string; page: number }, ack: (res: { update: WhiteboardBytes } | { error: string }) => void) => void;
  /** One change to a page, from someone allowed to draw; the others get it as `action:whiteboard_update`. */
  'request:whiteboard_update': (
    payload: { roomId: string; page: number; update: WhiteboardBytes },
    ack?: (res: { done: true } | { error: string }) => void,
  ) => void;
}

export interface WhiteboardServerEvents {
  'action:whiteboard_state': (payload: WhiteboardState) => void;
  'action:whiteboard_update': (payload: { roomId: string; page: number; from: string; update: WhiteboardBytes }) => void;
}

/** A page saved as an image during the class, for the session's students (newest picture of each page). */
export const savedWhiteboardPage = z.object({
  page: z.number().int(),
  saved_at: z.string(),
});
export type SavedWhiteboardPage = z.infer<typeof savedWhiteboardPage>;

/** A session of a course with the pages of its whiteboard saved during the class: the course's boards. */
export const sessionWhiteboard = z.object({
  session_id: z.number().int(),
  title: z.string(),
  starts_at: z.string(),
  /** The board's room: the session's, or one of its breakout groups'. */
  room_id: z.string(),
  /** The breakout group's number (from 1) when the board is a group's; null for the class's own. */
  group: z.number().int().positive().nullable(),
  pages: z.array(savedWhiteboardPage),
});
export type SessionWhiteboard = z.infer<typeof sessionWhiteboard>;

// In a URL a room id is text of one line (a NUL or a control character is refused, not queried).
const roomIdInPath = singleLineText().trim().min(1).max(128);
export const whiteboardRoomParams = z.object({ roomId: roomIdInPath });
export const whiteboardPageParams = z.object({ roomId: roomIdInPath, page: z.coerce.number().int().min(0).max(whiteboardLimits.maxPages - 1) });
/** A page's PNG, base64 (the host's tab saves each page it draws on as the class goes). */
export const whiteboardImageBody = z.object({
  png: z
    .string()
    .min(1)
    .max(Math.ceil((whiteboardLimits.snapshotMaxBytes * 4) / 3) + 4)
    .regex(/^[A-Za-z0-9+/]+={0,2}$/, 'Not base64'),
});
