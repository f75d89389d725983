// What a socket shows the signalling server when it connects, and how a refusal is read. Both the
// meeting's own socket (./signalling.ts) and the short-lived one that creates rooms (./ad-hoc-rooms.ts)
// connect this way, so it lives apart from either.
import type { Socket } from 'socket.io-client';
import { messages } from '@mooz/contract/messages';
import type { ClientToServerEvents, HandshakeAuth, ServerToClientEvents } from '@mooz/contract/realtime';
import { getAccessToken } from '../../../lib/api';
import { readStoredUser } from '../../../lib/stored-auth';

export type MeetingSocket = Socket<ServerToClientEvents, ClientToServerEvents>;

function userRole(): string | null {
  const user = readStoredUser();
  return (user?.role as string | undefined) ?? user?.user_type ?? null;
}

/** The handshake as of now: the current access token, and the room `peerId` is in, if any. */
export function handshake(peerId: string, currentRoomId: string | null): HandshakeAuth {
  // The protocol names the peer id `sessionId`.
  return { sessionId: peerId, currentRoomId, token: getAccessToken() ?? '', userRole: userRole() };
}

/** Reads the server's connect_error: JSON message, else the raw one, else 'Connection failed'. */
export function connectErrorMessage(error: { message?: string } | null | undefined): string {
  const raw = error?.message;
  if (!raw) return messages.connectionFailed;
  try {
    const parsed = JSON.parse(raw) as { message?: unknown };
    if (parsed && typeof parsed.message === 'string' && parsed.message) return parsed.message;
  } catch {
    // Not JSON: the raw message is the best we have.
  }
  return raw;
}
