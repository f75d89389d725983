// Large classes on the SFU (contract "Large classes and TURN"): which rooms move from the mesh to
// Janus and when (topology.ts), where each lives (placements.ts), who of this process's connections is
// in Janus (sfu-participant.ts), and moving rooms off an instance that died. Browsers never reach
// Janus's API: their offers, answers, candidates and layer choices come over the signalling socket,
// and only people the signalling admitted to the room get a Janus token.
import type { FastifyInstance } from 'fastify';
import { messages } from '@mooz/contract/messages';
import {
  roomChatPayload,
  sfuAnswerPayload,
  sfuLayersPayload,
  sfuPublishPayload,
  sfuTricklePayload,
  type ClientToServerEvents,
  type Room,
  type RoomTopology,
} from '@mooz/contract/realtime';
import type { Member, RoomStore } from '../realtime/room-store';
import { peerChannel, roomChannel, type MeetingSocket, type RealtimeServer } from '../realtime/sockets';
import type { JanusPool } from './janus-pool';
import { memoryPlacements, redisPlacements, type Placement, type PlacementStore } from './placements';
import { SfuParticipant } from './sfu-participant';
import { capacityLimit, decideTopology } from './topology';

type Handle = <P>(event: keyof ClientToServerEvents, run: (payload: P, reply: (res: unknown) => void) => Promise<void> | void) => void;

export interface Sfu {
  /** The most people a room may hold here (the SFU's limit when one is configured, the mesh's otherwise). */
  capacityLimit(): number;
  /** Whether an SFU instance is configured at all. */
  readonly configured: boolean;
  /** Where a room on the SFU lives (null: a mesh); for diagnostics and tests, never sent to a client. */
  placement(roomId: string): Promise<Placement | null>;
  /** The peers of a room this process holds in Janus (diagnostics, tests). */
  people(roomId: string): string[];
  /**
   * After a join: tells the joiner how the room's media flows, and moves the room to the SFU when it
   * outgrew the mesh. A `fresh` join (not a return within the grace) starts a new Janus session: the
   * page's old connections, if the same peer had any, are gone.
   */
  joined(socket: MeetingSocket, room: Room, fresh: boolean): Promise<void>;
  /** After someone left: their Janus session ends; an empty room's Janus room goes. */
  left(roomId: string, member: Member): Promise<void>;
  /** The socket's `request:sfu_*` and `request:room_chat` events. */
  serve(socket: MeetingSocket, handle: Handle): void;
  close(): Promise<void>;
}

export function createSfu(app: FastifyInstance, io: RealtimeServer, store: RoomStore, pool: JanusPool | null, meshMaxPeople: number): Sfu {
  const { config } = app;
  const placements: PlacementStore =
    config.redisUrl && app.redis ? redisPlacements(app.redis, config.redisPrefix, 24 * 60 * 60) : memoryPlacements();
  /** This process's people in SFU rooms, by room then peer id. */
  const local = new Map<string, Map<string, SfuParticipant>>();
  /** Placements this process made or served, for moving them when their instance dies. */
  const known = new Map<string, Placement>();

  function announce(roomId: string, placement: Placement | null) {
    const mode: RoomTopology = placement ? 'sfu' : 'mesh';
    io.to(roomChannel(roomId)).emit('action:room_topology', { roomId, mode, epoch: placement?.epoch ?? 0 });
  }

  /** Puts a room on the least loaded instance (not `except`, the one that died): the placement stored wins. */
  async function place(roomId: string, capacity: number, stale?: Placement): Promise<Placement | null> {
    if (!pool) return null;
    const instance = await pool.leastLoaded(stale?.instance);
    if (!instance) return null;
    const made = await pool.createRoom(instance.url, capacity);
    const placement: Placement = { instance: instance.url, ...made, epoch: Date.now() };
    const stored = stale ? await placements.replace(roomId, stale, placement) : await placements.claim(roomId, placement);
    if (stored.epoch !== placement.epoch) await pool.destroyRoom(instance.url, made.janusRoom, made.secret);
    known.set(roomId, stored);
    return stored;
  }

  async function closeLocal(roomId: string, peerId?: string) {
    const people = local.get(roomId);
    if (!people) return;
    for (const [held, participant] of people) {
      if (peerId !== undefined && held !== peerId) continue;
      people.delete(held);
      await participant.close();
    }
    if (!people.size) local.delete(roomId);
  }

  // An instance died: its rooms move to another, and everyone in them publishes again (a new epoch).
  pool?.onChange((url, up) => {
    if (up) return;
    for (const [roomId, placement] of known) {
      if (placement.instance !== url) continue;
      void (async () => {
        await closeLocal(roomId);
        const room = await store.findRoom(roomId);
        const moved = await place(roomId, room?.capacity ?? capacityLimit(true), placement);
        if (!moved) return app.log.error({ roomId }, 'no SFU instance to move a room to; its people have no media');
        app.log.info({ roomId, from: url, to: moved.instance }, 'room moved off a lost SFU instance');
        announce(roomId, moved);
      })().catch((error: unknown) => app.log.error({ err: error, roomId }, 'could not move a room off a lost SFU instance'));
    }
  });

  // Several processes: a peer back on another one (a reconnect through the load balancer) publishes
  // there afresh; the Janus session this process held for it would stay, a frozen ghost, for good.
  const clustered = !!(config.redisUrl && app.redis);
  if (clustered) io.on('sfu:taken', (roomId, peerId) => void closeLocal(roomId, peerId));
  function tellOthers(roomId: string, peerId: string) {
    if (!clustered) return;
    try {
      io.serverSideEmit('sfu:taken', roomId, peerId);
    } catch (error) {
      app.log.warn({ err: error, roomId }, 'could not tell the other processes whose SFU session moved');
    }
  }

  async function participant(socket: MeetingSocket, roomId: string, epoch: number): Promise<SfuParticipant | { error: string }> {
    if (!socket.data.rooms.has(roomId)) return { error: messages.notAllowed };
    const placement = await placements.get(roomId);
    // A message for an earlier placement (before a failover) has nothing left to reach.
    if (!placement || placement.epoch !== epoch || !pool) return { error: messages.sfuMoved };
    known.set(roomId, placement);
    const { peerId, user } = socket.data;
    let people = local.get(roomId);
    if (!people) local.set(roomId, (people = new Map()));
    const existing = people.get(peerId);
    if (existing && existing.placement.epoch === epoch) return existing;
    if (existing) await existing.close();
    const created = new SfuParticipant(
      peerId,
      placement,
      pool,
      {
        offer: ({ jsep, streams }) => io.to(peerChannel(user.id, peerId)).emit('action:sfu_offer', { roomId, epoch, jsep, streams }),
        media: (connected) => io.to(roomChannel(roomId)).emit('action:sfu_media', { roomId, peerId, connected }),
      },
      app.log,
    );
    people.set(peerId, created);
    return created;
  }

  return {
    configured: pool?.configured ?? false,
    placement: (roomId) => placements.get(roomId),
    people: (roomId) => [...(local.get(roomId)?.keys() ?? [])],
    capacityLimit: () => capacityLimit(pool?.configured ?? false),
    async joined(socket, room, fresh) {
      // Without an SFU every room is a mesh: nothing to look up (nor wait for, in a Redis outage).
      if (!pool) return void socket.emit('action:room_topology', { roomId: room.id, mode: 'mesh', epoch: 0 });
      if (fresh) await closeLocal(room.id, socket.data.peerId);
      let placement = await placements.get(room.id);
      if (fresh && placement) tellOthers(room.id, socket.data.peerId);
      const people = (await store.list(room.id)).length;
      if (!placement && pool && decideTopology('mesh', people, meshMaxPeople, pool.available()) === 'sfu') {
        placement = await place(room.id, capacityLimit(true)).catch((error: unknown) => {
          app.log.error({ err: error, roomId: room.id }, 'could not move a room to the SFU; it stays a mesh');
          return null;
        });
        if (placement) return announce(room.id, placement);
      }
      // Back within the grace on a process that holds no Janus session of theirs (they were served by
      // another, or this one restarted): their media must go up again, here.
      const { peerId } = socket.data;
      if (!fresh && placement && !local.get(room.id)?.has(peerId)) {
        tellOthers(room.id, peerId);
        return void socket.emit('action:room_topology', { roomId: room.id, mode: 'sfu', epoch: placement.epoch, republish: true });
      }
      socket.emit('action:room_topology', { roomId: room.id, mode: placement ? 'sfu' : 'mesh', epoch: placement?.epoch ?? 0 });
    },
    async left(roomId, member) {
      if (!pool) return;
      await closeLocal(roomId, member.peerId);
      const placement = await placements.get(roomId);
      if (!placement || (await store.list(roomId)).length) return;
      // The last one out: the room is a mesh again next time, and its Janus room goes.
      known.delete(roomId);
      await placements.clear(roomId, placement);
      await pool?.destroyRoom(placement.instance, placement.janusRoom, placement.secret);
    },
    serve(socket, handle) {
      handle('request:sfu_publish', async (payload, reply) => {
        const parsed = sfuPublishPayload.safeParse(payload);
        if (!parsed.success) return reply({ error: messages.validationFailed });
        const { roomId, epoch, jsep, screenMid } = parsed.data;
        if (jsep.type !== 'offer') return reply({ error: messages.validationFailed });
        const found = await participant(socket, roomId, epoch);
        if ('error' in found) return reply(found);
        try {
          reply({ jsep: await found.publish(jsep, screenMid) });
        } catch (error) {
          app.log.warn({ err: error, roomId }, 'SFU publish failed');
          reply({ error: messages.sfuUnavailable });
        }
      });
      handle('request:sfu_answer', async (payload, reply) => {
        const parsed = sfuAnswerPayload.safeParse(payload);
        if (!parsed.success || parsed.data.jsep.type !== 'answer') return reply({ error: messages.validationFailed });
        const found = await participant(socket, parsed.data.roomId, parsed.data.epoch);
        if ('error' in found) return reply(found);
        try {
          found.answer(parsed.data.jsep);
          reply({ done: true });
        } catch {
          reply({ error: messages.validationFailed });
        }
      });
      handle('request:sfu_trickle', async (payload, reply) => {
        const parsed = sfuTricklePayload.safeParse(payload);
        if (!parsed.success) return reply({ error: messages.validationFailed });
        const found = await participant(socket, parsed.data.roomId, parsed.data.epoch);
        if ('error' in found) return reply(found);
        await found.trickle(parsed.data.target, parsed.data.candidate).catch(() => undefined);
        reply({ done: true });
      });
      handle('request:sfu_layers', async (payload, reply) => {
        const parsed = sfuLayersPayload.safeParse(payload);
        if (!parsed.success) return reply({ error: messages.validationFailed });
        const found = await participant(socket, parsed.data.roomId, parsed.data.epoch);
        if ('error' in found) return reply(found);
        await found.layers(parsed.data.layers).catch((error: unknown) => app.log.warn({ err: error }, 'SFU layer change failed'));
        reply({ done: true });
      });
      handle('request:room_chat', (payload, reply) => {
        const parsed = roomChatPayload.safeParse(payload);
        if (!parsed.success) return reply({ error: messages.validationFailed });
        const { roomId, chat } = parsed.data;
        if (!socket.data.rooms.has(roomId)) return reply({ error: messages.notAllowed });
        socket.to(roomChannel(roomId)).emit('action:room_chat', { roomId, from: socket.data.peerId, chat });
        reply({ delivered: true });
      });
    },
    async close() {
      for (const roomId of [...local.keys()]) await closeLocal(roomId);
      await pool?.close();
    },
  };
}
