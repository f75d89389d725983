// The signalling server (contract "Real-time signalling"): socket.io on the app's own HTTP server.
// It admits people to rooms and relays their peers' messages; media never passes through here.
// Each socket joins a socket.io room named after its peer (user + sessionId), so a message reaches
// its recipient on whichever server process holds the connection (Redis adapter).
import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { Server, type Socket } from 'socket.io';
import { once } from 'node:events';
import { createAdapter } from '@socket.io/redis-adapter';
import { eq } from 'drizzle-orm';
import { limits } from '@mooz/contract/limits';
import { messages } from '@mooz/contract/messages';
import {
  createRoomPayload,
  handshakeAuth,
  joinRoomPayload,
  leaveRoomPayload,
  realtimeLimits,
  sendMessagePayload,
  socketPath,
  socketTransports,
  type ClientToServerEvents,
  type Room,
  type ServerToClientEvents,
} from '@mooz/contract/realtime';
import { userForAccessToken, type AuthUser } from '../http/authenticate';
import { courses } from '../db/schema/index';
import { sessionForRoom } from '../modules/classes/access';
import { recordJoin, recordLeave } from './attendance';
import { memoryRoomStore, redisRoomStore, type RoomStore } from './room-store';
import { iceServerRoutes } from './routes';

export interface RealtimeOptions {
  /** How long a dropped connection keeps its place in its rooms (contract: at most 10 s). */
  reconnectGraceMs: number;
}

export interface Realtime {
  io: Server<ClientToServerEvents, ServerToClientEvents, Record<string, never>, SocketData>;
  store: RoomStore;
  options: RealtimeOptions;
}

declare module 'fastify' {
  interface FastifyInstance {
    realtime: Realtime;
  }
}

interface SocketData {
  user: AuthUser;
  sessionId: string;
  currentRoomId: string | null;
  /** Rooms this connection is in, with the class session each belongs to (null for ad hoc rooms). */
  rooms: Map<string, { classSessionId: number | null }>;
}

type MeetingSocket = Socket<ClientToServerEvents, ServerToClientEvents, Record<string, never>, SocketData>;

const channel = (roomId: string) => `room:${roomId}`;
const peerChannel = (userId: number, sessionId: string) => `peer:${userId}:${sessionId}`;

/** connect_error carries the message as JSON, as the contract fixes. */
function refusal(message: string): Error {
  return new Error(JSON.stringify({ message }));
}

/** A token bucket per connection: a mesh negotiating at once is a burst, a flood is not. */
function eventBucket(scale: number) {
  const capacity = realtimeLimits.eventBurst * scale;
  const perMs = (realtimeLimits.eventsPerSecond * scale) / 1000;
  let tokens = capacity;
  let last = Date.now();
  return () => {
    const now = Date.now();
    tokens = Math.min(capacity, tokens + (now - last) * perMs);
    last = now;
    if (tokens < 1) return false;
    tokens -= 1;
    return true;
  };
}

export async function registerRealtime(app: FastifyInstance): Promise<void> {
  const { config } = app;
  const store = config.redisUrl && app.redis
    ? redisRoomStore(app.redis, config.redisPrefix, realtimeLimits.idleRoomTtlSeconds)
    : memoryRoomStore(realtimeLimits.idleRoomTtlSeconds);

  const io: Realtime['io'] = new Server(app.server, {
    path: socketPath,
    transports: [...socketTransports],
    serveClient: false,
    // Beyond the relay limit plus the envelope the engine drops the connection instead of parsing it.
    maxHttpBufferSize: realtimeLimits.relayMaxBytes + 16 * 1024,
    cors: config.corsOrigins.length ? { origin: config.corsOrigins, credentials: true } : undefined,
  });

  const adapterClients = config.redisUrl && app.redis ? [app.redis.duplicate(), app.redis.duplicate()] : [];
  if (adapterClients.length === 2) {
    // The adapter subscribes as soon as it is made and never catches: connect first, so a quick
    // shutdown cannot leave that subscription rejected and unhandled.
    await Promise.all(adapterClients.map((client) => (client.status === 'ready' ? undefined : once(client, 'ready'))));
    io.adapter(createAdapter(adapterClients[0]!, adapterClients[1]!, { key: `${config.redisPrefix}socket.io` }));
  }

  const realtime: Realtime = { io, store, options: { reconnectGraceMs: limits.reconnectGraceMs } };
  app.decorate('realtime', realtime);
  await app.register(iceServerRoutes, { prefix: '/api' });

  /** Delayed leaves of dropped connections, by room and peer. */
  const graceTimers = new Map<string, NodeJS.Timeout>();
  const graceKey = (roomId: string, userId: number, sessionId: string) => `${roomId}|${userId}|${sessionId}`;
  let closing = false;

  function cancelGrace(roomId: string, userId: number, sessionId: string) {
    const key = graceKey(roomId, userId, sessionId);
    clearTimeout(graceTimers.get(key));
    graceTimers.delete(key);
  }

  async function leave(roomId: string, classSessionId: number | null, user: AuthUser, sessionId: string, connectionId: string) {
    const left = await store.leave(roomId, sessionId, connectionId);
    if (!left) return;
    // Every connection of that peer leaves the channel, wherever it is, and the others are told.
    io.in(peerChannel(user.id, sessionId)).socketsLeave(channel(roomId));
    io.to(channel(roomId)).emit('action:terminate_peer_connection', { userId: sessionId });
    if (classSessionId !== null) await recordLeave(app.db, classSessionId, user.id);
  }

  /** The room behind an id: an ad hoc room, or a class session's room when this person may enter it. */
  async function resolveRoom(user: AuthUser, roomId: string): Promise<{ room: Room; classSessionId: number | null } | { error: string }> {
    const adHoc = await store.findRoom(roomId);
    if (adHoc) return { room: adHoc, classSessionId: null };
    const { session, allowed } = await sessionForRoom(app.db, user, roomId);
    if (!session) return { error: messages.roomNotFound };
    if (!allowed) return { error: messages.notAllowed };
    const [course] = await app.db.select({ teacherId: courses.teacherId }).from(courses).where(eq(courses.id, session.courseId));
    return {
      room: { id: roomId, name: session.title, capacity: session.capacity, created_by: course?.teacherId ?? null },
      classSessionId: session.id,
    };
  }

  io.use(async (socket, next) => {
    const auth = handshakeAuth.safeParse(socket.handshake.auth ?? {});
    const token = (socket.handshake.auth as { token?: unknown } | undefined)?.token;
    if (typeof token !== 'string' || !token) return next(refusal(messages.noAccessToken));
    if (!auth.success) return next(refusal(messages.validationFailed));
    try {
      const user = await userForAccessToken(app.db, app.jwtSecret, auth.data.token);
      if (!user) return next(refusal(messages.unauthorized));
      if (!user.ability.can('join', 'Meeting')) return next(refusal(messages.notAllowed));
      socket.data = { user, sessionId: auth.data.sessionId, currentRoomId: auth.data.currentRoomId ?? null, rooms: new Map() };
      next();
    } catch (error) {
      app.log.error({ err: error }, 'socket authentication failed');
      next(refusal(messages.unexpected));
    }
  });

  io.on('connection', (socket: MeetingSocket) => {
    const { user, sessionId } = socket.data;
    const allowEvent = eventBucket(config.rateLimitScale);
    // Events of one connection run one after another, so a join is complete before the next relay.
    let queue: Promise<void> = Promise.resolve();

    function handle<P>(
      event: keyof ClientToServerEvents,
      run: (payload: P, reply: (res: unknown) => void) => Promise<void>,
    ) {
      socket.on(event, ((payload: P, ack?: unknown) => {
        const reply = (res: unknown) => {
          if (typeof ack === 'function') ack(res);
          else if (res && typeof res === 'object' && 'error' in res) socket.emit('error', { message: String(res.error) });
        };
        if (!allowEvent()) return reply({ error: messages.rateLimited });
        queue = queue
          .then(() => run(payload, reply))
          .catch((error: unknown) => {
            app.log.error({ err: error, event }, 'signalling event failed');
            reply({ error: messages.unexpected });
          });
      }) as never);
    }

    // A newer connection of the same peer replaces older ones, on this process or another.
    const own = peerChannel(user.id, sessionId);
    queue = queue.then(async () => {
      // The request also reaches other processes, after this socket has joined: exclude it by id.
      io.in(own).except(socket.id).disconnectSockets(true);
      await socket.join(own);
      // Back after a network blip: take the place kept during the grace period.
      const resumeRoom = socket.data.currentRoomId;
      if (resumeRoom) {
        const member = await store.attach(resumeRoom, sessionId, user.id, socket.id);
        if (member) {
          cancelGrace(resumeRoom, user.id, sessionId);
          const resolved = await resolveRoom(user, resumeRoom);
          socket.data.rooms.set(resumeRoom, { classSessionId: 'room' in resolved ? resolved.classSessionId : null });
          socket.join(channel(resumeRoom));
        }
      }
    }).catch((error: unknown) => app.log.error({ err: error }, 'socket set-up failed'));

    handle('request:create_room', async (payload, reply) => {
      const parsed = createRoomPayload.safeParse(payload);
      if (!parsed.success) return reply({ error: messages.validationFailed });
      if (!user.ability.can('create', 'Meeting')) return reply({ error: messages.notAllowed });
      const room: Room = { id: randomUUID(), name: parsed.data.room.name, capacity: parsed.data.room.capacity, created_by: user.id };
      await store.saveRoom(room);
      reply({ room });
    });

    handle('request:join_room', async (payload, reply) => {
      const parsed = joinRoomPayload.safeParse(payload);
      if (!parsed.success) return reply({ error: messages.validationFailed });
      const { roomId, userName } = parsed.data;
      const resolved = await resolveRoom(user, roomId);
      if ('error' in resolved) return reply(resolved);
      const { room, classSessionId } = resolved;
      if (socket.data.rooms.has(roomId)) return reply({ room });

      const result = await store.join(room, { sessionId, userId: user.id, userName, connectionId: socket.id });
      if (result.status === 'full') return reply({ error: messages.roomFull });
      if (result.status === 'taken') return reply({ error: messages.notAllowed });

      // Members whose server died without saying so: the others drop their links, attendance closes.
      for (const gone of result.gone) {
        io.to(channel(roomId)).emit('action:terminate_peer_connection', { userId: gone.sessionId });
        if (classSessionId !== null) await recordLeave(app.db, classSessionId, gone.userId);
      }
      cancelGrace(roomId, user.id, sessionId);
      socket.data.rooms.set(roomId, { classSessionId });
      socket.join(channel(roomId));
      reply({ room });
      socket.emit('action:room_connection_established', { room });
      if (result.status === 'rejoined') {
        // A fresh page with the same sessionId: the others drop the old link before making a new one.
        socket.to(channel(roomId)).emit('action:terminate_peer_connection', { userId: sessionId });
      } else if (classSessionId !== null) {
        await recordJoin(app.db, classSessionId, user.id);
      }
      socket.to(channel(roomId)).emit('action:establish_peer_connection', { userId: sessionId, userName });
    });

    handle('request:send_mesage', async (payload, reply) => {
      const parsed = sendMessagePayload.safeParse(payload);
      if (!parsed.success) return reply({ error: messages.validationFailed });
      const { to, roomId, data } = parsed.data;
      if (Buffer.byteLength(JSON.stringify(data)) > realtimeLimits.relayMaxBytes) return reply({ error: messages.relayTooLarge });
      if (!socket.data.rooms.has(roomId)) return reply({ error: messages.notAllowed });
      const recipient = await store.member(roomId, to);
      if (!recipient || to === sessionId) return reply({ error: messages.notAllowed });
      io.to(peerChannel(recipient.userId, to)).emit('action:message_received', { from: sessionId, data });
      reply({ delivered: true });
    });

    handle('request:leave_room', async (payload, reply) => {
      const parsed = leaveRoomPayload.safeParse(payload);
      if (!parsed.success) return reply({ error: messages.validationFailed });
      const joined = socket.data.rooms.get(parsed.data.roomId);
      if (joined) {
        socket.data.rooms.delete(parsed.data.roomId);
        socket.leave(channel(parsed.data.roomId));
        cancelGrace(parsed.data.roomId, user.id, sessionId);
        await leave(parsed.data.roomId, joined.classSessionId, user, sessionId, socket.id);
      }
      reply({ left: true });
    });

    socket.on('disconnect', () => {
      if (closing) return;
      for (const [roomId, { classSessionId }] of socket.data.rooms) {
        const key = graceKey(roomId, user.id, sessionId);
        clearTimeout(graceTimers.get(key));
        graceTimers.set(
          key,
          setTimeout(() => {
            graceTimers.delete(key);
            leave(roomId, classSessionId, user, sessionId, socket.id).catch((error: unknown) =>
              app.log.error({ err: error }, 'leaving after a disconnect failed'),
            );
          }, realtime.options.reconnectGraceMs),
        );
      }
    });
  });

  // Close the sockets before Fastify closes its HTTP server, which would otherwise wait on them.
  app.addHook('preClose', async () => {
    closing = true;
    for (const timer of graceTimers.values()) clearTimeout(timer);
    graceTimers.clear();
    io.local.disconnectSockets(true);
    io.engine.close();
    await store.close();
    // Unsubscribe before quitting; QUIT queues behind it, so nothing is left pending.
    if (adapterClients.length) io.of('/').adapter.close();
    await Promise.all(adapterClients.map((client) => client.quit().catch(() => undefined)));
  });
}
