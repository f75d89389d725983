// Where each room that moved to the SFU lives: its Janus instance, its Janus room and that room's
// secret, and an epoch that grows with each placement (a failover places it again). In process memory
// for one server, in Redis when several share the rooms, so any process serves any participant.
import type { Redis } from 'ioredis';

export interface Placement {
  /** The Janus instance's WebSocket API URL. */
  instance: string;
  janusRoom: number;
  /** The Janus room's secret: needed to admit people and to destroy it; never leaves the server. */
  secret: string;
  epoch: number;
}

export interface PlacementStore {
  get(roomId: string): Promise<Placement | null>;
  /** Stores `placement` unless one is stored (by another process, meanwhile): the one stored wins. */
  claim(roomId: string, placement: Placement): Promise<Placement>;
  /** Stores `next` if `stale` is still the one stored (a failover); the one stored wins otherwise. */
  replace(roomId: string, stale: Placement, next: Placement): Promise<Placement>;
  /** Forgets the room's placement, if it is still `placement`. */
  clear(roomId: string, placement: Placement): Promise<void>;
}

export function memoryPlacements(): PlacementStore {
  const placed = new Map<string, Placement>();
  return {
    async get(roomId) {
      return placed.get(roomId) ?? null;
    },
    async claim(roomId, placement) {
      const stored = placed.get(roomId);
      if (stored) return stored;
      placed.set(roomId, placement);
      return placement;
    },
    async replace(roomId, stale, next) {
      const stored = placed.get(roomId);
      if (stored && stored.epoch !== stale.epoch) return stored;
      placed.set(roomId, next);
      return next;
    },
    async clear(roomId, placement) {
      if (placed.get(roomId)?.epoch === placement.epoch) placed.delete(roomId);
    },
  };
}

/** Compare-and-set on the stored JSON's epoch, in one script so two processes cannot both win. */
const replaceScript = `
local stored = redis.call('GET', KEYS[1])
if stored and cjson.decode(stored).epoch ~= tonumber(ARGV[1]) then return stored end
redis.call('SET', KEYS[1], ARGV[2], 'EX', ARGV[3])
return ARGV[2]`;
const clearScript = `
local stored = redis.call('GET', KEYS[1])
if stored and cjson.decode(stored).epoch == tonumber(ARGV[1]) then redis.call('DEL', KEYS[1]) end
return 1`;

export function redisPlacements(redis: Redis, prefix: string, ttlSeconds: number): PlacementStore {
  const key = (roomId: string) => `${prefix}sfu:${roomId}`;
  return {
    async get(roomId) {
      const stored = await redis.get(key(roomId));
      return stored ? (JSON.parse(stored) as Placement) : null;
    },
    async claim(roomId, placement) {
      const text = JSON.stringify(placement);
      const set = await redis.set(key(roomId), text, 'EX', ttlSeconds, 'NX');
      if (set) return placement;
      const stored = await redis.get(key(roomId));
      return stored ? (JSON.parse(stored) as Placement) : placement;
    },
    async replace(roomId, stale, next) {
      const stored = (await redis.eval(replaceScript, 1, key(roomId), String(stale.epoch), JSON.stringify(next), String(ttlSeconds))) as string;
      return JSON.parse(stored) as Placement;
    },
    async clear(roomId, placement) {
      await redis.eval(clearScript, 1, key(roomId), String(placement.epoch));
    },
  };
}
