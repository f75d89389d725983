// The real-time signalling protocol: socket.io at /socket.io/, websocket transport only (config.ts), a handshake
// `auth` of sessionId, currentRoomId, token and userRole. Event names are exact, including the
// specification's `request:send_mesage`. The server validates every payload with these schemas; the
// web client and the benchmark are typed by the event maps.
import { z } from 'zod';
import { limits } from './limits';
import { validationMessages } from './messages';
import type { RoomRecording } from './recordings';
import type { WhiteboardClientEvents, WhiteboardServerEvents } from './whiteboard';
import type { ClassroomToolClientEvents, ClassroomToolServerEvents } from './classroom-tools';
import type { BreakoutClientEvents, BreakoutServerEvents } from './breakouts';
import type { NotificationEvent } from './notifications';

/** Numbers of the signalling server that the specification leaves open. */
export const realtimeLimits = {
  /** Largest `data` of one relayed message, as JSON text (an SDP offer with candidates is ~10 KiB). */
  relayMaxBytes: 64 * 1024,
  /** Per-connection token bucket: a burst (a mesh negotiating at once) then a steady rate. */
  eventBurst: 300,
  eventsPerSecond: 100,
  /**
   * Per-account token bucket, shared by all of one account's connections on a server process: opening
   * more sockets does not buy more events. Twice a connection's, so a second tab in another meeting fits.
   */
  userEventBurst: 600,
  userEventsPerSecond: 200,
  /** An ad hoc room nobody is in is forgotten after this long. */
  idleRoomTtlSeconds: 24 * 60 * 60,
  /** ICE restarts a client tries on a failed connection before it reports the error. */
  iceRestartAttempts: 2,
} as const;

const roomId = z.string().trim().min(1).max(128);
const userName = z.string().trim().min(1, validationMessages.required).max(limits.nameMaxLength, validationMessages.nameTooLong);
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
  name: z.string().trim().min(1, validationMessages.required).max(limits.nameMaxLength, validationMessages.nameTooLong),
  capacity: z.coerce
    .number()
    .int('Use a whole number')
    .min(limits.meetingMinCapacity, `At least ${limits.meetingMinCapacity} people`)
    .max(limits.meetingMaxCapacity, `At most ${limits.meetingMaxCapacity} people`),
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

/**
 * GET /api/ice-servers/: the STUN servers, then the TURN servers with a credential made for the caller
 * (`<unix expiry>:<user id>`, valid TURN_TTL seconds); `ice_transport_policy` only when clients must
 * use relays alone.
 */
export const iceServersAnswer = z.object({
  data: z.array(iceServer),
  ice_transport_policy: z.literal('relay').optional(),
});
export type IceServersAnswer = z.infer<typeof iceServersAnswer>;

/** How large a room may be here: the SFU's limit when the server has one, the mesh's otherwise. */
export const meetingCapacity = z.object({
  max_capacity: z.number().int(),
  /** Whether large classes go through an SFU (rooms above MESH_MAX_PEOPLE people move to it). */
  sfu: z.boolean(),
  mesh_max_people: z.number().int(),
});
export type MeetingCapacity = z.infer<typeof meetingCapacity>;

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

/** What peers send each other through `request:send_mesage`: a connection request, or a negotiation signal with its stream ids. */
export type SignalData =
  | { connection: true; userName: string }
  | { sdpSignal: SdpSignal; metaData: StreamMetaData };

/** Chat goes over the data channel, never through the server: `{chat: ...}` as JSON. */
export interface ChatWireMessage {
  chat: { id: string; userLabel: string; text: string };
}

export type Ack<T> = T | { error: string };

// Running a class: hand raise, the host's controls, the lobby. The host is the room's
// `created_by` (a session's teacher, an ad hoc room's creator) or an admin; the server refuses a
// control from anyone else with `{error: 'Not allowed'}` and changes nothing.

/** A raised hand, in the order raised. `userId` is the peer id (sessionId), as in every room event. */
export const raisedHand = z.object({ userId: peerId, userName: z.string(), raisedAt: z.string() });
export type RaisedHand = z.infer<typeof raisedHand>;

export const raiseHandPayload = z.object({ roomId, raised: z.boolean() });
/** The host lowers one hand (`userId`) or all of them (no `userId`). */
export const lowerHandsPayload = z.object({ roomId, userId: peerId.optional() });

export const moderationActions = [
  /** Turn `target`'s microphone off (they may turn it on again unless unmuting is locked). */
  'mute',
  /** Turn everyone's microphone off but the host's. */
  'mute_all',
  'stop_camera',
  'stop_screen',
  /** Out of the room, and refused if they come back while the session (or ad hoc room) lasts. */
  'remove',
  /** Participants may not turn their microphone on until unlocked (the host's own is never locked). */
  'lock_unmute',
  'unlock_unmute',
  /** Students may send private messages only to and from a host (the host's own are never locked). */
  'lock_private_chat',
  'unlock_private_chat',
  /** Everyone out; a class session ends now (its ends_at moves to now); an ad hoc room closes. */
  'end_class',
] as const;
export type ModerationAction = (typeof moderationActions)[number];
export const moderatePayload = z.object({
  roomId,
  action: z.enum(moderationActions),
  /** The peer id the action is for: needed by mute, stop_camera, stop_screen, remove. */
  target: peerId.optional(),
});

/** Turn an ad hoc room's lobby on or off (its host). Class sessions always have one for non-students. */
export const setLobbyPayload = z.object({ roomId, enabled: z.boolean() });
/** The host admits or refuses someone waiting. */
export const admitPayload = z.object({ roomId, userId: peerId, admit: z.boolean() });

export const lobbyEntry = z.object({ userId: peerId, userName: z.string(), since: z.string() });
export type LobbyEntry = z.infer<typeof lobbyEntry>;

/** What everyone in a room knows about how it is run; sent on join and whenever it changes. */
export interface RoomControls {
  roomId: string;
  /** The host's peer ids in the room now (their tiles show it; their clients show the controls). */
  hosts: string[];
  unmuteLocked: boolean;
  lobbyEnabled: boolean;
  /** A class session's room (its lobby is always on for outsiders and cannot be switched), not an ad hoc one. */
  classSession: boolean;
  hands: RaisedHand[];
  /** Students may send private messages to hosts only (lock_private_chat). */
  privateChatLocked: boolean;
}

// Large classes (contract "Large classes and TURN"): above limits.meshMaxPeople people a room moves
// from the mesh to the SFU (Janus), which only the server drives. Offers, answers, candidates and layer
// choices go over this socket; `epoch` names one placement of the room on an SFU instance, so that
// what belongs to an older one (before a failover) is ignored.

export type RoomTopology = 'mesh' | 'sfu';
export const sessionDescription = z.object({ type: z.enum(['offer', 'answer']), sdp: z.string().min(1).max(realtimeLimits.relayMaxBytes) });
const epoch = z.number().int().min(0);
export const sfuPublishPayload = z.object({
  roomId,
  epoch,
  jsep: sessionDescription,
  /** The transceiver mid of the screen share in the offer, if one is sent. */
  screenMid: z.string().max(16).nullish(),
});
export const sfuAnswerPayload = z.object({ roomId, epoch, jsep: sessionDescription });
export const sfuTricklePayload = z.object({
  roomId,
  epoch,
  target: z.enum(['publisher', 'subscriber']),
  candidate: z
    .object({
      candidate: z.string().max(1024),
      sdpMid: z.string().max(16).nullish(),
      sdpMLineIndex: z.number().int().min(0).max(255).nullish(),
    })
    .nullable(),
});
export const videoLayers = ['high', 'low', 'off'] as const;
export type VideoLayer = (typeof videoLayers)[number];
export const sfuLayersPayload = z.object({
  roomId,
  epoch,
  layers: z.array(z.object({ peerId, source: z.enum(['camera', 'screen']).default('camera'), layer: z.enum(videoLayers) })).max(256),
});
export const roomChatPayload = z.object({
  roomId,
  chat: z.object({ id: z.string().min(1).max(64), userLabel: z.string().max(limits.nameMaxLength + 20), text: z.string().min(1).max(limits.chatMaxLength) }),
});

/** One stream a subscriber receives from the SFU: whose it is and what. */
export interface SfuStream {
  mid: string;
  peerId: string;
  kind: 'audio' | 'video';
  source: 'camera' | 'screen';
}

export interface ClientToServerEvents extends WhiteboardClientEvents, ClassroomToolClientEvents, BreakoutClientEvents {
  'request:create_room': (payload: { room: { name: string; capacity: number } }, ack: (res: Ack<{ room: Room }>) => void) => void;
  /**
   * Rules the server enforces on a join: `capacity` counts everyone in the room, but the room's host
   * (`created_by`: a session's teacher, an ad hoc room's creator) is admitted even when it is full, so a
   * class cannot be filled against its teacher; an admin is counted and refused like anyone else. One
   * account holds one place per room: a join with another sessionId takes the place over (the old one
   * gets `action:replaced_elsewhere`). A class session's room opens `limits.sessionJoinEarlyMinutes`
   * before it starts and closes to joins when it ends, for everyone.
   */
  'request:join_room': (payload: { roomId: string; userName: string }, ack: (res: Ack<{ room: Room } | LobbyWait>) => void) => void;
  'request:send_mesage': (
    payload: { to: string; roomId: string; data: SignalData | Record<string, unknown> },
    ack?: (res: Ack<{ delivered: true }>) => void,
  ) => void;
  'request:leave_room': (payload: { roomId: string }, ack?: (res: Ack<{ left: true }>) => void) => void;
  'request:raise_hand': (payload: { roomId: string; raised: boolean }, ack?: (res: Ack<{ raised: boolean }>) => void) => void;
  'request:lower_hands': (payload: { roomId: string; userId?: string }, ack?: (res: Ack<{ lowered: number }>) => void) => void;
  'request:moderate': (
    payload: { roomId: string; action: ModerationAction; target?: string },
    ack?: (res: Ack<{ done: true }>) => void,
  ) => void;
  'request:set_lobby': (payload: { roomId: string; enabled: boolean }, ack?: (res: Ack<{ enabled: boolean }>) => void) => void;
  'request:admit': (payload: { roomId: string; userId: string; admit: boolean }, ack?: (res: Ack<{ done: true }>) => void) => void;
  /** SFU rooms: publish (or renegotiate) this participant's camera, microphone and screen; answered with Janus's answer. */
  'request:sfu_publish': (
    payload: { roomId: string; epoch: number; jsep: { type: 'offer' | 'answer'; sdp: string }; screenMid?: string | null },
    ack: (res: Ack<{ jsep: { type: 'offer' | 'answer'; sdp: string } }>) => void,
  ) => void;
  /** SFU rooms: the answer to the subscription offer of `action:sfu_offer`. */
  'request:sfu_answer': (payload: { roomId: string; epoch: number; jsep: { type: 'offer' | 'answer'; sdp: string } }, ack?: (res: Ack<{ done: true }>) => void) => void;
  'request:sfu_trickle': (
    payload: { roomId: string; epoch: number; target: 'publisher' | 'subscriber'; candidate: RTCIceCandidateInitLike | null },
    ack?: (res: Ack<{ done: true }>) => void,
  ) => void;
  /** SFU rooms: which quality of whose video this participant needs (last-N: off for tiles not shown). */
  'request:sfu_layers': (
    payload: { roomId: string; epoch: number; layers: { peerId: string; source?: 'camera' | 'screen'; layer: VideoLayer }[] },
    ack?: (res: Ack<{ done: true }>) => void,
  ) => void;
  /** SFU rooms: a chat to everyone in the room (the mesh's chat goes over data channels instead). */
  'request:room_chat': (payload: { roomId: string; chat: ChatWireMessage['chat'] }, ack?: (res: Ack<{ delivered: true }>) => void) => void;
}

/**
 * The answer to a join that must wait in the lobby (instead of `{room}`): the joiner shows "waiting for
 * the host" until `action:lobby_decision`; once admitted it sends `request:join_room` again and is let in.
 */
export interface LobbyWait {
  lobby: { roomId: string; roomName: string };
}

export interface ServerToClientEvents extends WhiteboardServerEvents, ClassroomToolServerEvents, BreakoutServerEvents {
  /** To every socket of one person: a notification for them arrived (notifications.ts). */
  'action:notification': (payload: NotificationEvent) => void;
  'action:room_connection_established': (payload: { room: Room }) => void;
  'action:establish_peer_connection': (payload: { userId: string; userName: string }) => void;
  'action:message_received': (payload: { from: string; data: SignalData | Record<string, unknown> }) => void;
  'action:terminate_peer_connection': (payload: { userId: string }) => void;
  /**
   * This connection is no longer in `roomId` and should send `request:join_room` again, by itself and
   * without asking its user. Sent when the server lost its shared room state (a Redis outage) and could
   * not give the place back: the room filled up meanwhile, or the sessionId went to someone else. The
   * others were told it left (`action:terminate_peer_connection`) and are introduced again when it rejoins;
   * the rejoin is answered like any join (`Room is full`, ...).
   */
  'action:rejoin_required': (payload: { roomId: string }) => void;
  /**
   * The same account joined `roomId` with another sessionId (another tab or device), which took this
   * connection's place: one account holds one place per room. This connection is no longer in the room
   * (the others got `action:terminate_peer_connection` for its id) and should leave the meeting.
   */
  'action:replaced_elsewhere': (payload: { roomId: string }) => void;
  /**
   * Whether `roomId` is being recorded, and by whom: sent to everyone in the room when a recording
   * starts (`recording`) and when it stops or is finished by the server (`null`), and to each joiner
   * right after its join is answered while one is under way. Started and stopped over HTTP
   * (`/api/classes/recordings/live/`), never by a socket event.
   */
  'action:recording_state': (payload: { roomId: string; recording: RoomRecording | null }) => void;
  /** How the room is run (hosts, hands, unmute lock, lobby): to each joiner after its join, and to all on change. */
  'action:room_controls': (payload: RoomControls) => void;
  /**
   * A host's control applied to this participant (mute, stop_camera, stop_screen, or mute_all reaching
   * them): the client turns that track off and shows who did it; `unmuteLocked` tells whether it may
   * turn the microphone on again.
   */
  'action:moderated': (payload: { roomId: string; action: ModerationAction; byName: string; unmuteLocked: boolean }) => void;
  /** This participant was removed (`removed`) or the class was ended for everyone (`ended`): leave the meeting. */
  'action:room_closed': (payload: { roomId: string; reason: 'removed' | 'ended'; byName: string }) => void;
  /** To the room's hosts: who waits in the lobby, oldest first (sent whenever it changes). */
  'action:lobby': (payload: { roomId: string; waiting: LobbyEntry[] }) => void;
  /** To someone waiting: the host's decision. Admitted: send `request:join_room` again. */
  'action:lobby_decision': (payload: { roomId: string; admitted: boolean }) => void;
  /**
   * How the room's media flows: to each joiner after its join, and to everyone when it changes (the
   * room moved to the SFU, or was placed again after an SFU instance failed: a new `epoch`, publish again).
   * `republish`: publish again on the same epoch (back on a server process that holds no SFU session of yours).
   */
  'action:room_topology': (payload: { roomId: string; mode: RoomTopology; epoch: number; republish?: true }) => void;
  /** SFU rooms: Janus's subscription offer (the others' streams, `streams` saying whose each is); answer with `request:sfu_answer`. */
  'action:sfu_offer': (payload: { roomId: string; epoch: number; jsep: { type: 'offer' | 'answer'; sdp: string }; streams: SfuStream[] }) => void;
  /** SFU rooms: whose media connection to the SFU is up, for the hosts' People list. */
  'action:sfu_media': (payload: { roomId: string; peerId: string; connected: boolean }) => void;
  'action:room_chat': (payload: { roomId: string; from: string; chat: ChatWireMessage['chat'] }) => void;
  error: (payload: { message: string }) => void;
}

/** The video bitrate each sender may use with `connections` peers, in kbps: the budget shared among them, never below the floor. */
export function videoBitrateKbps(connections: number): number {
  const share = Math.floor(limits.videoBitrateBudgetKbps / Math.max(1, connections));
  return Math.max(share, limits.videoBitrateMinKbps);
}
