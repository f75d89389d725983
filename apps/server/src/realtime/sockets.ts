// The typed socket.io server and sockets of the signalling, and the socket.io rooms it uses: one per
// meeting room, and one per peer (user + peerId), so a message reaches its recipient on whichever
// server process holds the connection (Redis adapter).
import type { Server, Socket } from 'socket.io';
import type { ClientToServerEvents, ServerToClientEvents } from '@mooz/contract/realtime';
import type { AuthUser } from '../http/authenticate';

/**
 * The account behind a connection, as the signalling needs it: the permission answers it asks are
 * taken at the handshake, so a connection keeps no permission object of its own (one is ~8 KiB).
 */
interface MeetingUser extends Pick<AuthUser, 'id' | 'userType' | 'familyId'> {
  /** May create ad hoc meeting rooms (`create` `Meeting`). */
  mayCreateMeetings: boolean;
}

export interface SocketData {
  user: MeetingUser;
  peerId: string;
  currentRoomId: string | null;
  /** Rooms this connection is in, with the class session each belongs to (null for ad hoc rooms). */
  rooms: Map<string, { sessionId: number | null }>;
  /** Rooms this connection was asked to join again (`action:rejoin_required`). */
  rejoining: Set<string>;
}

/** What server processes tell each other (through the Redis adapter), never a client. */
export interface InterServerEvents {
  /** A peer of an SFU room joined afresh on another process: any Janus session held for it here is stale. */
  'sfu:taken': (roomId: string, peerId: string) => void;
  /** A room's whiteboard changed (shown, page, who may draw): a copy kept for checking strokes is stale. */
  'whiteboard:changed': (roomId: string) => void;
}

export type RealtimeServer = Server<ClientToServerEvents, ServerToClientEvents, InterServerEvents, SocketData>;
export type MeetingSocket = Socket<ClientToServerEvents, ServerToClientEvents, InterServerEvents, SocketData>;

export const roomChannel = (roomId: string) => `room:${roomId}`;
export const peerChannel = (userId: number, peerId: string) => `peer:${userId}:${peerId}`;
