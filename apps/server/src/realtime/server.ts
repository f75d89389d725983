// The signalling server (contract "Real-time signalling"): socket.io on the app's own HTTP server.
// It admits people to rooms and relays their peers' messages; media never passes through here.
// With REDIS_URL, rooms are shared by every server process through Redis, and a Redis outage is
// weathered: this process's rooms carry on from its memory and are shared again when Redis is back
// (mirrored-room-store.ts); the adapter's failures are logged, never fatal (redis-adapter.ts).
import type { FastifyInstance } from 'fastify';
import { Server } from 'socket.io';
import { limits } from '@mooz/contract/limits';
import { messages } from '@mooz/contract/messages';
import { socketPath, socketTransports } from '@mooz/contract/config';
import { handshakeAuth, realtimeLimits } from '@mooz/contract/realtime';
import { roomAdmission } from './admission';
import { closeSocketsOfClosedAccounts } from './closed-accounts';
import { serveConnection } from './connection';
import { eventLimits } from './event-limits';
import { memoryRoomStore } from './memory-room-store';
import { roomMembership } from './membership';
import { mirroredRoomStore, type Recovery } from './mirrored-room-store';
import { memoryRoomControlsStore, redisRoomControlsStore } from './room-controls-store';
import { moderation } from './moderation';
import { useRedisAdapter } from './redis-adapter';
import { whiteboardService } from './whiteboard/whiteboard';
import { classroomTools } from './classroom-tools/classroom-tools';
import { breakoutService } from './breakouts/breakouts';
import { redisRoomStore, type Member, type RoomStore } from './room-store';
import { iceServerRoutes } from './routes';
import { janusPool } from '../sfu/janus-pool';
import { createSfu, type Sfu } from '../sfu/sfu';
import type { MeetingSocket, RealtimeServer } from './sockets';

interface RealtimeOptions {
  /** How long a dropped connection keeps its place in its rooms (contract: at most 10 s). */
  reconnectGraceMs: number;
}

interface Realtime {
  io: RealtimeServer;
  store: RoomStore;
  options: RealtimeOptions;
  /** Large classes: the SFU, when JANUS_URLS (or main.ts's own Janus) names one. */
  sfu: Sfu;
}

declare module 'fastify' {
  interface FastifyInstance {
    realtime: Realtime;
  }
}

/** connect_error carries the message as JSON, as the contract fixes. */
function refusal(message: string): Error {
  return new Error(JSON.stringify({ message }));
}

export async function registerRealtime(app: FastifyInstance): Promise<void> {
  const { config } = app;
  // Who hears about places lost in a rebuild after a Redis outage; set once the membership exists.
  let onRecovered = (_recovery: Recovery) => {};
  const store: RoomStore =
    config.redisUrl && app.redis
      ? mirroredRoomStore(
          app.redis,
          redisRoomStore(app.redis, config.redisPrefix, realtimeLimits.idleRoomTtlSeconds),
          memoryRoomStore(realtimeLimits.idleRoomTtlSeconds),
          { log: app.log, onRecovered: (recovery) => onRecovered(recovery) },
        )
      : memoryRoomStore(realtimeLimits.idleRoomTtlSeconds);

  const io: RealtimeServer = new Server(app.server, {
    path: socketPath,
    transports: [...socketTransports],
    serveClient: false,
    // Beyond the relay limit plus the envelope the engine drops the connection instead of parsing it.
    maxHttpBufferSize: realtimeLimits.relayMaxBytes + 16 * 1024,
    cors: config.corsOrigins.length ? { origin: config.corsOrigins, credentials: true } : undefined,
  });
  const adapter = await useRedisAdapter(app, io);

  const pool = config.janus.urls.length ? janusPool(config.janus.urls, config.janus.apiSecret, app.log) : null;
  const sfu = createSfu(app, io, store, pool, config.janus.meshMaxPeople);
  const realtime: Realtime = { io, store, options: { reconnectGraceMs: limits.reconnectGraceMs }, sfu };
  app.decorate('realtime', realtime);
  await app.register(iceServerRoutes);

  // Hands, the host's controls and the lobby live where the rooms do (room-controls-store.ts).
  let onLeft: (roomId: string, member: Member) => void = () => {};
  const membership = roomMembership(app, io, store, {
    clustered: adapter !== null,
    whenBroadcasting: () => adapter?.whenConnected(),
    onLeft: (roomId, member) => onLeft(roomId, member),
  });
  onRecovered = (recovery) => membership.recovered(recovery);
  const admission = roomAdmission(app, store);
  const roomControlsStore =
    config.redisUrl && app.redis
      ? redisRoomControlsStore(app.redis, config.redisPrefix, realtimeLimits.idleRoomTtlSeconds)
      : memoryRoomControlsStore();
  const roomModeration = moderation(app, io, store, roomControlsStore, admission, membership);
  onLeft = (roomId, member) => {
    roomModeration.left(roomId, member);
    sfu.left(roomId, member).catch((error: unknown) => app.log.error({ err: error, roomId }, 'SFU leave failed'));
  };
  let closing = false;
  const signalling = {
    app,
    io,
    store,
    admission,
    membership,
    moderation: roomModeration,
    sfu,
    whiteboard: whiteboardService(app, io, store, admission),
    tools: classroomTools(app, io, store, roomControlsStore, admission),
    breakouts: breakoutService(app, io, store, roomControlsStore, admission),
    limits: eventLimits(config.rateLimitScale),
    graceMs: () => realtime.options.reconnectGraceMs,
    closing: () => closing,
  };

  io.use(async (socket, next) => {
    const auth = handshakeAuth.safeParse(socket.handshake.auth ?? {});
    const token = (socket.handshake.auth as { token?: unknown } | undefined)?.token;
    if (typeof token !== 'string' || !token) return next(refusal(messages.noAccessToken));
    if (!auth.success) return next(refusal(messages.validationFailed));
    try {
      // As an HTTP request is: the token's signature, the account and its family's revocation from
      // app.accessTokens' memory (dropped at once on a revocation or an account change, here and in
      // every process), so a meeting's page, which has just used the same token, connects without a query.
      const user = await app.accessTokens.userFor(auth.data.token);
      if (!user) return next(refusal(messages.unauthorized));
      if (!user.ability.can('join', 'Meeting')) return next(refusal(messages.notAllowed));
      const meetingUser = { id: user.id, userType: user.userType, familyId: user.familyId, mayCreateMeetings: user.ability.can('create', 'Meeting') };
      socket.data = { user: meetingUser, peerId: auth.data.sessionId, currentRoomId: auth.data.currentRoomId ?? null, rooms: new Map(), rejoining: new Set() };
      next();
    } catch (error) {
      app.log.error({ err: error }, 'socket authentication failed');
      next(refusal(messages.unexpected));
    }
  });

  io.on('connection', (socket: MeetingSocket) => serveConnection(signalling, socket));
  const stopClosingAccounts = closeSocketsOfClosedAccounts(io, app.changes);

  // Close the sockets before Fastify closes its HTTP server, which would otherwise wait on them.
  app.addHook('preClose', async () => {
    closing = true;
    stopClosingAccounts();
    membership.stop();
    io.local.disconnectSockets(true);
    io.engine.close();
    await sfu.close();
    await store.close();
    await adapter?.close();
  });
}
