// The real-time signalling protocol (contract "Real-time signalling", spec §7): socket.io at
// /socket.io/, websocket only. Event names are exact, including the specification's
// `request:send_mesage`. The server validates every payload with these schemas; the web client and
// the benchmark are typed by the event maps.
import { z } from 'zod';
import { limits } from './limits';

export const socketPath = '/socket.io/';
export const socketTransports = ['websocket'] as const;

/** Numbers of the signalling server that the specification leaves open. */
export const realtimeLimits = {
  /** A mesh beyond this many people no longer fits ordinary uplinks, whatever the bitrate floor. */
  maxMeetingCapacity: 50,
  /** Largest `data` of one relayed message, as JSON text (an SDP offer with candidates is ~10 KiB). */
  relayMaxBytes: 64 * 1024,
  /** Per-connection token bucket: a burst (a mesh negotiating at once) then a steady rate. */
  eventBurst: 300,
  eventsPerSecond: 100,
  /** An ad hoc room nobody is in is forgotten after this long. */
  idleRoomTtlSeconds: 24 * 60 * 60,
  /** ICE restarts a client tries on a failed connection before it reports the error. */
  iceRestartAttempts: 2,
} as const;

const roomId = z.string().trim().min(1).max(128);
const userName = z.string().trim().min(1, 'Required').max(100, 'Use at most 100 characters');
const peerId = z.string().min(1).max(128);

export const handshakeAuth = z.object({
  sessionId: peerId,
  currentRoomId: roomId.nullish(),
  token: z.string().min(1),
  /** Sent by clients as the specification says; the server ignores it and reads the role from the token. */
  userRole: z.string().nullish(),
});
export type HandshakeAuth = z.infer<typeof handshakeAuth>;

export const meetingForm = z.object({
  name: z.string().trim().min(1, 'Required').max(100, 'Use at most 100 characters'),
  capacity: z.coerce
    .number()
    .int('Use a whole number')
    .min(2, 'At least 2 people')
    .max(realtimeLimits.maxMeetingCapacity, `At most ${realtimeLimits.maxMeetingCapacity} people`),
});

export const createRoomPayload = z.object({
  room: z.object({
    name: meetingForm.shape.name.default(limits.defaultMeetingName),
    capacity: meetingForm.shape.capacity.default(limits.defaultMeetingCapacity),
  }),
});
export const joinRoomPayload = z.object({ roomId, userName });
export const leaveRoomPayload = z.object({ roomId });
export const sendMessagePayload = z.object({
  to: peerId,
  roomId,
  data: z.record(z.string(), z.unknown()),
});

/** One RTCIceServer as GET /api/ice-servers/ returns it. */
export const iceServer = z.object({
  urls: z.union([z.string(), z.array(z.string())]),
  username: z.string().optional(),
  credential: z.string().optional(),
});
export type IceServer = z.infer<typeof iceServer>;

export const room = z.object({
  id: z.string(),
  name: z.string(),
  capacity: z.number().int(),
  created_by: z.number().int().nullable(),
});
export type Room = z.infer<typeof room>;

/** Stream ids that tell a receiver which incoming stream is the screen share. */
export interface StreamMetaData {
  screenStreamId: string | null;
  userStreamId: string | null;
}

/** A perfect-negotiation signal: a session description or an ICE candidate. */
export type SdpSignal = { description: RTCSessionDescriptionInitLike } | { candidate: RTCIceCandidateInitLike | null };
export interface RTCSessionDescriptionInitLike {
  type: 'offer' | 'answer' | 'pranswer' | 'rollback';
  sdp?: string;
}
export interface RTCIceCandidateInitLike {
  candidate?: string;
  sdpMid?: string | null;
  sdpMLineIndex?: number | null;
  usernameFragment?: string | null;
}

/** What peers send each other through `request:send_mesage` (spec §7). */
export type SignalData =
  | { connection: true; userName: string }
  | { sdpSignal: SdpSignal; metaData: StreamMetaData };

/** Chat goes over the data channel, never through the server: `{chat: ...}` as JSON. */
export interface ChatWireMessage {
  chat: { id: string; userLabel: string; text: string };
}

export type Ack<T> = T | { error: string };

export interface ClientToServerEvents {
  'request:create_room': (payload: { room: { name: string; capacity: number } }, ack: (res: Ack<{ room: Room }>) => void) => void;
  'request:join_room': (payload: { roomId: string; userName: string }, ack: (res: Ack<{ room: Room }>) => void) => void;
  'request:send_mesage': (
    payload: { to: string; roomId: string; data: SignalData | Record<string, unknown> },
    ack?: (res: Ack<{ delivered: true }>) => void,
  ) => void;
  'request:leave_room': (payload: { roomId: string }, ack?: (res: Ack<{ left: true }>) => void) => void;
}

export interface ServerToClientEvents {
  'action:room_connection_established': (payload: { room: Room }) => void;
  'action:establish_peer_connection': (payload: { userId: string; userName: string }) => void;
  'action:message_received': (payload: { from: string; data: SignalData | Record<string, unknown> }) => void;
  'action:terminate_peer_connection': (payload: { userId: string }) => void;
  error: (payload: { message: string }) => void;
}

/** The video bitrate each sender may use with `connections` peers (spec §9), in kbps. */
export function videoBitrateKbps(connections: number): number {
  const share = Math.floor(limits.videoBitrateBudgetKbps / Math.max(1, connections));
  return Math.max(share, limits.videoBitrateMinKbps);
}
