// One signalling connection: its requests (create, join, relay, leave), each validated, rate-limited
// and run one after another, and what its arrival and departure mean for the rooms it is in.
import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { fillMessage, messages } from '@mooz/contract/messages';
import {
  createRoomPayload,
  joinRoomPayload,
  leaveRoomPayload,
  type ClientToServerEvents,
  type Room,
} from '@mooz/contract/realtime';
import type { RoomAdmission } from './admission';
import { recordJoin, recordLeave } from './attendance';
import type { eventLimits } from './event-limits';
import type { RoomMembership } from './membership';
import type { Moderation } from './moderation';
import type { Sfu } from '../sfu/sfu';
import type { WhiteboardService } from './whiteboard/whiteboard';
import type { ClassroomTools } from './classroom-tools/classroom-tools';
import type { BreakoutService } from './breakouts/breakouts';
import { readRelayMessage, relayTooLarge } from './relay-checks';
import type { Member, RoomStore } from './room-store';
import { peerChannel, roomChannel, type MeetingSocket, type RealtimeServer } from './sockets';

interface Signalling {
  app: FastifyInstance;
  io: RealtimeServer;
  store: RoomStore;
  admission: RoomAdmission;
  membership: RoomMembership;
  /** Hands, the host's room controls and the lobby (moderation.ts). */
  moderation: Moderation;
  /** Large classes: the room's move to the SFU, and the SFU's own events (sfu/sfu.ts). */
  sfu: Sfu;
  /** The class's whiteboard (whiteboard/whiteboard.ts). */
  whiteboard: WhiteboardService;
  /** Reactions, private messages and polls (classroom-tools/). */
  tools: ClassroomTools;
  /** Breakout rooms (breakouts/). */
  breakouts: BreakoutService;
  limits: ReturnType<typeof eventLimits>;
  /** How long a dropped connection keeps its place, read at each disconnect (tests shorten it). */
  graceMs(): number;
  closing(): boolean;
}

export function serveConnection(ctx: Signalling, socket: MeetingSocket) {
  const { app, io, store, admission, membership } = ctx;
  const { user, peerId } = socket.data;
  const limit = ctx.limits.connect(user.id);
  // Events of one connection run one after another, so a join is complete before the next relay. An
  // event that arrives with nothing of its connection pending starts at once, and one that finishes
  // without waiting (a relay, most of the time) costs no promise at all; the others wait their turn.
  let queue: Promise<void> = Promise.resolve();
  let pending = 0;
  const settled = () => {
    pending -= 1;
  };

  // The answer to a request without an acknowledgement: a refusal comes back as an `error` event.
  // Declared once a connection, so that an event costs no closure of its own (one each is measurable
  // on the relay, the event sent by the thousand).
  const answerWithoutAck = (res: unknown) => {
    if (res && typeof res === 'object' && 'error' in res) socket.emit('error', { message: String(res.error) });
  };
  function fail(event: string, reply: (res: unknown) => void, error: unknown) {
    app.log.error({ err: error, event }, 'signalling event failed');
    reply({ error: messages.unexpected });
  }

  function handle<P>(event: keyof ClientToServerEvents, run: (payload: P, reply: (res: unknown) => void) => Promise<void> | void) {
    socket.on(event, ((payload: P, ack?: unknown) => {
      // socket.io's acknowledgement answers once, as `reply` must.
      const reply = typeof ack === 'function' ? (ack as (res: unknown) => void) : answerWithoutAck;
      if (!limit.allow()) return reply({ error: messages.rateLimited });
      pending += 1;
      if (pending > 1) {
        queue = queue.then(() => run(payload, reply)).then(settled, (error: unknown) => (settled(), fail(event, reply, error)));
        return;
      }
      let running: Promise<void> | void;
      try {
        running = run(payload, reply);
      } catch (error) {
        running = undefined;
        fail(event, reply, error);
      }
      if (running) queue = running.then(settled, (error: unknown) => (settled(), fail(event, reply, error)));
      else settled();
    }) as never);
  }

  // A newer connection of the same peer replaces older ones, on this process or another.
  pending += 1;
  queue = queue
    .then(async () => {
      // The request also reaches other processes, after this socket has joined: exclude it by id.
      membership.replaceConnection(user.id, peerId, socket.id);
      await socket.join(peerChannel(user.id, peerId));
      // Back after a network blip: take the place kept during the grace period.
      const resumeRoom = socket.data.currentRoomId;
      if (resumeRoom) {
        const known = await admission.lookup(resumeRoom);
        const member = await store.attach(resumeRoom, peerId, user.id, socket.id, known?.room);
        if (member) {
          membership.cancelGrace(resumeRoom, user.id, peerId);
          socket.data.rooms.set(resumeRoom, { sessionId: known?.sessionId ?? null });
          socket.join(roomChannel(resumeRoom));
        }
      }
    })
    .catch((error: unknown) => app.log.error({ err: error }, 'socket set-up failed'))
    .then(settled);

  handle('request:create_room', async (payload, reply) => {
    const parsed = createRoomPayload.safeParse(payload);
    if (!parsed.success) return reply({ error: messages.validationFailed });
    if (!user.mayCreateMeetings) return reply({ error: messages.notAllowed });
    const most = ctx.sfu.capacityLimit();
    if (parsed.data.room.capacity > most) return reply({ error: fillMessage(messages.roomCapacityOver, { max: most }) });
    const room: Room = { id: randomUUID(), name: parsed.data.room.name, capacity: parsed.data.room.capacity, created_by: user.id };
    await store.saveRoom(room);
    reply({ room });
  });

  handle('request:join_room', async (payload, reply) => {
    const parsed = joinRoomPayload.safeParse(payload);
    if (!parsed.success) return reply({ error: messages.validationFailed });
    const { roomId, userName } = parsed.data;
    const resolved = await admission.resolve(user, roomId);
    if ('error' in resolved) return reply(resolved);
    const { room, sessionId, closed } = resolved;
    if (socket.data.rooms.has(roomId)) {
      const [self] = await store.members(roomId, [peerId]);
      if (self?.userId === user.id) {
        reply({ room });
        // Back within the grace (its place kept): the client forgets a recording notice on every join
        // answer, so tell it again of one under way, as a joiner is told.
        const recording = await app.liveRecordings.notice(roomId);
        if (recording) socket.emit('action:recording_state', { roomId, recording });
        // And how the room is run now (hands, lock), which may have changed meanwhile (moderation.ts).
        await ctx.moderation.joined(socket, room);
        await ctx.sfu.joined(socket, room, false);
        return;
      }
      // Its place went to the same account elsewhere meanwhile: this is a new join.
      socket.data.rooms.delete(roomId);
      socket.leave(roomChannel(roomId));
    }
    if (closed) return reply({ error: closed });
    // Removed accounts, ended rooms and the lobby (moderation.ts).
    const gated = await ctx.moderation.gate(socket, resolved, userName);
    if (gated) return reply(gated);

    // Without an SFU a room holds what a mesh can carry, whatever capacity it was given.
    const held = room.capacity > ctx.sfu.capacityLimit() ? { ...room, capacity: ctx.sfu.capacityLimit() } : room;
    const result = await store.join(held, { peerId, userId: user.id, userName, connectionId: socket.id, connectedAt: Date.now() });
    if (result.status === 'full') return reply({ error: messages.roomFull });
    if (result.status === 'taken') return reply({ error: messages.notAllowed });

    // Members whose server died without saying so: the others drop their links, attendance closes.
    for (const gone of result.gone) {
      io.to(roomChannel(roomId)).emit('action:terminate_peer_connection', { userId: gone.peerId });
      if (sessionId !== null) await recordLeave(app.db, sessionId, gone.userId);
    }
    // This account's other place in the room is this one now: that connection is out, and told.
    for (const replaced of result.replaced) membership.displace(roomId, replaced);
    membership.cancelGrace(roomId, user.id, peerId);
    socket.data.rooms.set(roomId, { sessionId });
    socket.join(roomChannel(roomId));
    reply({ room });
    socket.emit('action:room_connection_established', { room });
    // A fresh page with the same peerId, or a rejoin asked for after an outage (some may have missed
    // that it left): the others drop the old link before making a new one.
    if (socket.data.rejoining.delete(roomId) || result.status === 'rejoined') {
      socket.to(roomChannel(roomId)).emit('action:terminate_peer_connection', { userId: peerId });
    }
    // A takeover continues the account's visit; only a new one is recorded.
    if (result.status === 'joined' && sessionId !== null && !result.replaced.length) {
      await recordJoin(app.db, sessionId, user.id);
    }
    socket.to(roomChannel(roomId)).emit('action:establish_peer_connection', { userId: peerId, userName });
    // A recording under way is shown to whoever joins later too (recordings/live.ts).
    const recording = await app.liveRecordings.notice(roomId);
    if (recording) socket.emit('action:recording_state', { roomId, recording });
    await ctx.moderation.joined(socket, room);
    await ctx.sfu.joined(socket, room, true);
  });

  // The relay, the event sent most (relay-checks.ts): checked without zod or JSON.stringify on the
  // common path, and, with a store that answers at once (memory), without a promise or a closure.
  // Both ends must be in the room now: the sender's place may have gone to the same account elsewhere.
  function relay(
    to: string,
    data: Record<string, unknown>,
    sender: Readonly<Member> | null | undefined,
    recipient: Readonly<Member> | null | undefined,
    reply: (res: unknown) => void,
  ) {
    if (sender?.userId !== user.id || !recipient) return reply({ error: messages.notAllowed });
    // To the connection that holds the recipient's place, straight to it when it is on this process:
    // no room lookup, and with the Redis adapter no publish to every other process. Otherwise (on
    // another process, or gone meanwhile) through the peer's channel, which reaches it wherever it is.
    const local = io.sockets.sockets.get(recipient.connectionId);
    if (local) local.emit('action:message_received', { from: peerId, data });
    else io.to(peerChannel(recipient.userId, to)).emit('action:message_received', { from: peerId, data });
    reply({ delivered: true });
  }
  handle('request:send_mesage', (payload, reply) => {
    const message = readRelayMessage(payload);
    if (!message) return reply({ error: messages.validationFailed });
    const { to, roomId, data } = message;
    if (relayTooLarge(data)) return reply({ error: messages.relayTooLarge });
    if (!socket.data.rooms.has(roomId) || to === peerId) return reply({ error: messages.notAllowed });
    if (store.peek) return relay(to, data, store.peek(roomId, peerId), store.peek(roomId, to), reply);
    return store.members(roomId, [peerId, to]).then(([sender, recipient]) => relay(to, data, sender, recipient, reply));
  });

  handle('request:leave_room', async (payload, reply) => {
    const parsed = leaveRoomPayload.safeParse(payload);
    if (!parsed.success) return reply({ error: messages.validationFailed });
    const joined = socket.data.rooms.get(parsed.data.roomId);
    if (joined) {
      socket.data.rooms.delete(parsed.data.roomId);
      socket.leave(roomChannel(parsed.data.roomId));
      membership.cancelGrace(parsed.data.roomId, user.id, peerId);
      await membership.leave(parsed.data.roomId, joined.sessionId, user.id, peerId, socket.id);
    }
    reply({ left: true });
  });

  ctx.moderation.serve(socket, handle as never);
  ctx.sfu.serve(socket, handle as never);
  ctx.whiteboard.serve(socket, handle as never);
  ctx.tools.serve(socket, handle as never);
  ctx.breakouts.serve(socket, handle as never);

  socket.on('disconnect', () => {
    limit.release();
    if (ctx.closing()) return;
    for (const [roomId, { sessionId }] of socket.data.rooms) {
      membership.startGrace(roomId, sessionId, user.id, peerId, socket.id, ctx.graceMs());
    }
  });
}
