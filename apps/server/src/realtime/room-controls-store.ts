// How each meeting room is run: raised hands, the microphone lock, the lobby and who waits
// in it, who was let in or removed, which peers are hosts, whether an ad hoc room was ended. It lives
// where the room's members live: process memory for a single server, Redis when REDIS_URL shares the
// rooms among processes (every key expires with the room's idle lifetime, or later for a removal).
import type { Redis } from 'ioredis';
import type { LobbyEntry, RaisedHand } from '@mooz/contract/realtime';

/** Someone waiting in a room's lobby: the peer id, the account, and when they came. */
export interface Waiting extends LobbyEntry {
  accountId: number;
}

/** What a host can lock for everyone but the hosts: turning the microphone on, private chat between students. */
export type RoomLock = 'unmute' | 'private_chat';

export interface RoomControlsStore {
  /** Raises a hand; a hand already up keeps its place in the order. */
  raise(roomId: string, hand: RaisedHand): Promise<void>;
  /** Lowers one peer's hand, or every hand; how many went down. */
  lower(roomId: string, peerId?: string): Promise<number>;
  hands(roomId: string): Promise<RaisedHand[]>;
  setLocked(roomId: string, lock: RoomLock, locked: boolean): Promise<void>;
  locked(roomId: string, lock: RoomLock): Promise<boolean>;
  setLobby(roomId: string, enabled: boolean): Promise<void>;
  lobbyEnabled(roomId: string): Promise<boolean>;
  /** Puts a peer in the lobby; one already waiting keeps its place. */
  wait(roomId: string, entry: Waiting): Promise<void>;
  /** Takes a peer out of the lobby; what its entry was, or null. */
  unwait(roomId: string, peerId: string): Promise<Waiting | null>;
  /** The lobby, oldest first. */
  waiting(roomId: string): Promise<Waiting[]>;
  admit(roomId: string, accountId: number): Promise<void>;
  admitted(roomId: string, accountId: number): Promise<boolean>;
  /** Keeps an account out of the room for `ttlSeconds`, remembering who removed it. */
  remove(roomId: string, accountId: number, byName: string, ttlSeconds: number): Promise<void>;
  removedBy(roomId: string, accountId: number): Promise<string | null>;
  addHost(roomId: string, peerId: string): Promise<void>;
  dropHost(roomId: string, peerId: string): Promise<void>;
  hostSessions(roomId: string): Promise<string[]>;
  /** An ad hoc room ended by its host: joins are refused while it would have lasted. */
  end(roomId: string, byName: string): Promise<void>;
  endedBy(roomId: string): Promise<string | null>;
  /** Forgets the room's hands, lock, lobby and hosts (the class ended); removals and the end stay. */
  reset(roomId: string): Promise<void>;
}

const byTime =
  <T extends { userId: string }>(key: (item: T) => string) =>
  (a: T, b: T) =>
    key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : a.userId < b.userId ? -1 : a.userId > b.userId ? 1 : 0;
const handOrder = byTime<RaisedHand>((hand) => hand.raisedAt);
const lobbyOrder = byTime<Waiting>((entry) => entry.since);

export function memoryRoomControlsStore(now: () => number = Date.now): RoomControlsStore {
  interface State {
    hands: Map<string, RaisedHand>;
    locked: Set<RoomLock>;
    lobby: boolean;
    waiting: Map<string, Waiting>;
    admitted: Set<number>;
    removed: Map<number, { byName: string; until: number }>;
    hosts: Set<string>;
    endedBy: string | null;
  }
  const rooms = new Map<string, State>();
  const state = (roomId: string): State => {
    let found = rooms.get(roomId);
    if (!found) {
      found = {
        hands: new Map(),
        locked: new Set(),
        lobby: false,
        waiting: new Map(),
        admitted: new Set(),
        removed: new Map(),
        hosts: new Set(),
        endedBy: null,
      };
      rooms.set(roomId, found);
    }
    return found;
  };
  return {
    async raise(roomId, hand) {
      const { hands } = state(roomId);
      if (!hands.has(hand.userId)) hands.set(hand.userId, hand);
    },
    async lower(roomId, peerId) {
      const { hands } = state(roomId);
      if (peerId === undefined) {
        const count = hands.size;
        hands.clear();
        return count;
      }
      return hands.delete(peerId) ? 1 : 0;
    },
    async hands(roomId) {
      return [...state(roomId).hands.values()].sort(handOrder);
    },
    async setLocked(roomId, lock, locked) {
      if (locked) state(roomId).locked.add(lock);
      else state(roomId).locked.delete(lock);
    },
    async locked(roomId, lock) {
      return state(roomId).locked.has(lock);
    },
    async setLobby(roomId, enabled) {
      state(roomId).lobby = enabled;
    },
    async lobbyEnabled(roomId) {
      return state(roomId).lobby;
    },
    async wait(roomId, entry) {
      const { waiting } = state(roomId);
      if (!waiting.has(entry.userId)) waiting.set(entry.userId, entry);
    },
    async unwait(roomId, peerId) {
      const { waiting } = state(roomId);
      const entry = waiting.get(peerId) ?? null;
      waiting.delete(peerId);
      return entry;
    },
    async waiting(roomId) {
      return [...state(roomId).waiting.values()].sort(lobbyOrder);
    },
    async admit(roomId, accountId) {
      state(roomId).admitted.add(accountId);
    },
    async admitted(roomId, accountId) {
      return state(roomId).admitted.has(accountId);
    },
    async remove(roomId, accountId, byName, ttlSeconds) {
      state(roomId).removed.set(accountId, { byName, until: now() + ttlSeconds * 1000 });
      state(roomId).admitted.delete(accountId);
    },
    async removedBy(roomId, accountId) {
      const found = state(roomId).removed.get(accountId);
      return found && found.until > now() ? found.byName : null;
    },
    async addHost(roomId, peerId) {
      state(roomId).hosts.add(peerId);
    },
    async dropHost(roomId, peerId) {
      state(roomId).hosts.delete(peerId);
    },
    async hostSessions(roomId) {
      return [...state(roomId).hosts];
    },
    async end(roomId, byName) {
      state(roomId).endedBy = byName;
    },
    async endedBy(roomId) {
      return rooms.get(roomId)?.endedBy ?? null;
    },
    async reset(roomId) {
      const found = state(roomId);
      Object.assign(found, { hands: new Map(), locked: new Set(), lobby: false, waiting: new Map(), hosts: new Set() });
    },
  };
}

/**
 * The Redis home. While Redis is away every call fails at once instead of queueing: the signalling
 * lets joins through then (moderation.ts), as the mirrored room store keeps meetings going.
 */
export function redisRoomControlsStore(redis: Redis, prefix: string, ttlSeconds: number): RoomControlsStore {
  const store = sharedRoomControlsStore(redis, prefix, ttlSeconds);
  const guarded = {} as Record<string, (...args: unknown[]) => Promise<unknown>>;
  for (const [name, method] of Object.entries(store) as [string, (...args: unknown[]) => Promise<unknown>][]) {
    guarded[name] = (...args) =>
      redis.status === 'ready' ? method(...args) : Promise.reject(new Error(`Redis connection is ${redis.status}`));
  }
  return guarded as unknown as RoomControlsStore;
}

function sharedRoomControlsStore(redis: Redis, prefix: string, ttlSeconds: number): RoomControlsStore {
  const key = (roomId: string, part: string) => `${prefix}controls:${roomId}:${part}`;
  const parse = <T>(raw: string) => JSON.parse(raw) as T;
  // The microphone lock keeps the key it always had.
  const lockKey = (roomId: string, lock: RoomLock) => key(roomId, lock === 'unmute' ? 'locked' : `locked:${lock}`);
  /** Runs the writes and renews the lifetime of the keys they touched. */
  async function write(keys: string[], build: (batch: ReturnType<Redis['multi']>) => void, ttl = ttlSeconds) {
    const batch = redis.multi();
    build(batch);
    for (const k of keys) batch.expire(k, ttl);
    await batch.exec();
  }
  return {
    async raise(roomId, hand) {
      const k = key(roomId, 'hands');
      await write([k], (b) => b.hsetnx(k, hand.userId, JSON.stringify(hand)));
    },
    async lower(roomId, peerId) {
      const k = key(roomId, 'hands');
      if (peerId !== undefined) return redis.hdel(k, peerId);
      const [[, count]] = (await redis.multi().hlen(k).del(k).exec()) as [[unknown, number], unknown];
      return count;
    },
    async hands(roomId) {
      return Object.values(await redis.hgetall(key(roomId, 'hands')))
        .map((raw) => parse<RaisedHand>(raw))
        .sort(handOrder);
    },
    async setLocked(roomId, lock, locked) {
      const k = lockKey(roomId, lock);
      if (locked) await redis.set(k, '1', 'EX', ttlSeconds);
      else await redis.del(k);
    },
    async locked(roomId, lock) {
      return (await redis.exists(lockKey(roomId, lock))) === 1;
    },
    async setLobby(roomId, enabled) {
      const k = key(roomId, 'lobby');
      if (enabled) await redis.set(k, '1', 'EX', ttlSeconds);
      else await redis.del(k);
    },
    async lobbyEnabled(roomId) {
      return (await redis.exists(key(roomId, 'lobby'))) === 1;
    },
    async wait(roomId, entry) {
      const k = key(roomId, 'waiting');
      await write([k], (b) => b.hsetnx(k, entry.userId, JSON.stringify(entry)));
    },
    async unwait(roomId, peerId) {
      const k = key(roomId, 'waiting');
      const [[, raw]] = (await redis.multi().hget(k, peerId).hdel(k, peerId).exec()) as [
        [unknown, string | null],
        unknown,
      ];
      return raw ? parse<Waiting>(raw) : null;
    },
    async waiting(roomId) {
      return Object.values(await redis.hgetall(key(roomId, 'waiting')))
        .map((raw) => parse<Waiting>(raw))
        .sort(lobbyOrder);
    },
    async admit(roomId, accountId) {
      const k = key(roomId, 'admitted');
      await write([k], (b) => b.sadd(k, String(accountId)));
    },
    async admitted(roomId, accountId) {
      return (await redis.sismember(key(roomId, 'admitted'), String(accountId))) === 1;
    },
    async remove(roomId, accountId, byName, ttl) {
      await redis
        .multi()
        .set(key(roomId, `removed:${accountId}`), byName, 'EX', Math.max(1, Math.ceil(ttl)))
        .srem(key(roomId, 'admitted'), String(accountId))
        .exec();
    },
    async removedBy(roomId, accountId) {
      return redis.get(key(roomId, `removed:${accountId}`));
    },
    async addHost(roomId, peerId) {
      const k = key(roomId, 'hosts');
      await write([k], (b) => b.sadd(k, peerId));
    },
    async dropHost(roomId, peerId) {
      await redis.srem(key(roomId, 'hosts'), peerId);
    },
    async hostSessions(roomId) {
      return redis.smembers(key(roomId, 'hosts'));
    },
    async end(roomId, byName) {
      await redis.set(key(roomId, 'ended'), byName, 'EX', ttlSeconds);
    },
    async endedBy(roomId) {
      return redis.get(key(roomId, 'ended'));
    },
    async reset(roomId) {
      await redis.del(
        key(roomId, 'hands'),
        lockKey(roomId, 'unmute'),
        lockKey(roomId, 'private_chat'),
        key(roomId, 'lobby'),
        key(roomId, 'waiting'),
        key(roomId, 'hosts'),
      );
    },
  };
}
