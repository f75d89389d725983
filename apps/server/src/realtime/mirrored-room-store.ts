// The Redis room store with a local mirror of this process's own rooms and members, so a Redis outage
// does not end the meetings this process holds. While Redis answers, it is the truth and the mirror
// follows it. While it does not, the mirror answers: a room whose members are all on this process keeps
// relaying, joins to rooms this process knows keep working (capacity counted among this process's
// members only, the best it can know), and the rooms touched are noted. When Redis is back, possibly
// empty (it may restart without its data), this process rebuilds its share of the shared state: it
// saves again the ad hoc rooms it knows and puts its members back with the join rules, atomically per
// room; then `onRecovered` hears who did not get their place back, to tell them.
import type { FastifyBaseLogger } from 'fastify';
import type { Redis } from 'ioredis';
import type { MemoryRoomStore } from './memory-room-store';
import type { Member, RedisRoomStore, RestoreStatus, RoomStore } from './room-store';

export interface Recovery {
  /** This process's members that did not get their place back, and why. */
  lost: { roomId: string; member: Member; status: Exclude<RestoreStatus, 'kept' | 'restored'> }[];
  /** Other processes' members whose place went to this process's newer connection of the same account. */
  displaced: { roomId: string; member: Member }[];
}

interface MirroredRoomStoreOptions {
  log: FastifyBaseLogger;
  onRecovered(recovery: Recovery): void;
  /** Wait before trying again when a rebuild failed while the connection stayed up. */
  retryMs?: number;
}

export function mirroredRoomStore(
  redis: Redis,
  shared: RedisRoomStore,
  mirror: MemoryRoomStore,
  options: MirroredRoomStoreOptions,
): RoomStore {
  const { log, onRecovered, retryMs = 1000 } = options;
  // Not ready yet at start counts as an outage, so the first `ready` checks in.
  let healthy = redis.status === 'ready';
  let closed = false;
  let recovering: Promise<void> | null = null;
  let retry: NodeJS.Timeout | undefined;
  /** Rooms whose membership changed while only the mirror knew: Redis must hear about them. */
  const dirty = new Set<string>();

  function degrade(reason: unknown) {
    if (healthy) log.warn({ err: reason }, "Redis is unavailable: meeting rooms are served from this process's memory");
    healthy = false;
    scheduleRecovery();
  }

  function scheduleRecovery() {
    // Without a connection, the next `ready` starts the rebuild.
    if (closed || retry || recovering || redis.status !== 'ready') return;
    retry = setTimeout(() => {
      retry = undefined;
      void recover();
    }, retryMs);
    retry.unref();
  }

  async function rebuild(recovery: Recovery) {
    await shared.heartbeat();
    // Members put back must not look like a dead process's to the next join.
    let rooms = new Set([...mirror.snapshot().occupied.map(({ room }) => room.id), ...dirty]);
    dirty.clear();
    // Changes made while this runs land in the mirror and in `dirty`: go round until none did.
    while (rooms.size) {
      const { adHocRooms, occupied } = mirror.snapshot();
      await shared.resaveRooms(adHocRooms);
      const byId = new Map(occupied.map((entry) => [entry.room.id, entry]));
      for (const roomId of rooms) {
        const entry = byId.get(roomId);
        const members = entry?.members ?? [];
        try {
          const { statuses, displaced } = await shared.restore(roomId, entry?.room ?? null, members);
          statuses.forEach((status, i) => {
            if (status === 'kept' || status === 'restored') return;
            mirror.drop(roomId, members[i]!.peerId);
            recovery.lost.push({ roomId, member: members[i]!, status });
          });
          for (const member of displaced) recovery.displaced.push({ roomId, member });
        } catch (error) {
          for (const left of rooms) dirty.add(left);
          throw error;
        }
        rooms.delete(roomId);
      }
      rooms = new Set(dirty);
      dirty.clear();
    }
    healthy = true;
    log.info('Redis is back: the meeting rooms of this process are shared again');
  }

  function recover(): Promise<void> {
    if (closed) return Promise.resolve();
    if (recovering) return recovering;
    const recovery: Recovery = { lost: [], displaced: [] };
    recovering = rebuild(recovery)
      .catch((error: unknown) => log.warn({ err: error }, 'rebuilding the shared meeting rooms failed; trying again'))
      .finally(() => {
        recovering = null;
        // Those already decided are told even when a later room failed.
        if (!closed && (recovery.lost.length || recovery.displaced.length)) onRecovered(recovery);
        if (!healthy) scheduleRecovery();
      });
    return recovering;
  }

  const onClose = () => degrade(new Error('the connection to Redis closed'));
  const onReady = () => {
    if (!healthy) void recover();
  };
  redis.on('close', onClose);
  redis.on('ready', onReady);

  /** Redis when it answers, else the mirror; `roomId` is noted when the call changes membership. */
  async function either<T>(viaRedis: () => Promise<T>, viaMirror: () => Promise<T>, changes?: string): Promise<T> {
    if (healthy && redis.status === 'ready') {
      try {
        return await viaRedis();
      } catch (error) {
        degrade(error);
      }
    } else if (healthy) {
      degrade(new Error(`Redis connection is ${redis.status}`));
    }
    if (changes !== undefined) dirty.add(changes);
    return viaMirror();
  }

  return {
    async saveRoom(room) {
      await either(() => shared.saveRoom(room), async () => undefined);
      // The mirror remembers it either way; a rebuild saves it again.
      await mirror.saveRoom(room);
    },
    async findRoom(roomId) {
      return either(
        async () => {
          const found = await shared.findRoom(roomId);
          if (found) {
            await mirror.saveRoom(found);
            return found;
          }
          // Lost by Redis without this process noticing: it still knows the room, and says so again.
          const known = await mirror.findRoom(roomId);
          if (known) await shared.resaveRooms([known]);
          return known;
        },
        () => mirror.findRoom(roomId),
      );
    },
    async join(room, member) {
      return either(
        async () => {
          const result = await shared.join(room, member);
          if (result.status === 'joined' || result.status === 'rejoined') {
            mirror.hold(room.id, member, room);
            for (const other of [...result.replaced, ...result.gone]) mirror.drop(room.id, other.peerId);
          }
          return result;
        },
        () => mirror.join(room, member),
        room.id,
      );
    },
    member(roomId, peerId) {
      return either(
        () => shared.member(roomId, peerId),
        () => mirror.member(roomId, peerId),
      );
    },
    members(roomId, sessionIds) {
      return either(
        () => shared.members(roomId, sessionIds),
        () => mirror.members(roomId, sessionIds),
      );
    },
    list(roomId) {
      return either(
        () => shared.list(roomId),
        () => mirror.list(roomId),
      );
    },
    attach(roomId, peerId, userId, connectionId, room) {
      return either(
        async () => {
          const member = await shared.attach(roomId, peerId, userId, connectionId);
          if (member) mirror.hold(roomId, member, room);
          else mirror.drop(roomId, peerId);
          return member;
        },
        () => mirror.attach(roomId, peerId, userId, connectionId, room),
        roomId,
      );
    },
    leave(roomId, peerId, connectionId) {
      return either(
        async () => {
          const left = await shared.leave(roomId, peerId, connectionId);
          // Redis decides; the mirror only forgets what it held for this connection.
          await mirror.leave(roomId, peerId, connectionId);
          return left;
        },
        () => mirror.leave(roomId, peerId, connectionId),
        roomId,
      );
    },
    async close() {
      closed = true;
      clearTimeout(retry);
      redis.off('close', onClose);
      redis.off('ready', onReady);
      await shared.close();
    },
  };
}
