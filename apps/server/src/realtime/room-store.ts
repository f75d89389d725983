// Who is in which meeting room. One interface, two homes: process memory for a single server, Redis
// when several servers share meetings (membership and the capacity check are one atomic script there).
import { randomUUID } from 'node:crypto';
import type { Redis } from 'ioredis';
import type { Room } from '@mooz/contract/realtime';

export interface Member {
  /** The peer's id in the room: the client's sessionId. */
  sessionId: string;
  userId: number;
  userName: string;
  /** The socket that holds the place now; a disconnect's delayed leave only applies while it still does. */
  connectionId: string;
}

export type JoinResult =
  /** A new member; `others` were there before; `gone` were dropped because their server died. */
  | { status: 'joined'; others: Member[]; gone: Member[] }
  /** The same person and sessionId were already in (a reload or a second connection); now on this connection. */
  | { status: 'rejoined'; others: Member[]; gone: Member[] }
  | { status: 'full' }
  /** The sessionId is someone else's in this room. */
  | { status: 'taken' };

export interface RoomStore {
  saveRoom(room: Room): Promise<void>;
  findRoom(roomId: string): Promise<Room | null>;
  join(room: Room, member: Member): Promise<JoinResult>;
  member(roomId: string, sessionId: string): Promise<Member | null>;
  /** Moves a member back onto a new connection of the same user; null when they are no longer in. */
  attach(roomId: string, sessionId: string, userId: number, connectionId: string): Promise<Member | null>;
  /** Removes a member; with `connectionId`, only while that connection still holds the place. */
  leave(roomId: string, sessionId: string, connectionId?: string): Promise<Member | null>;
  /** Stops this process's share of the store (its liveness signal, for the Redis store). */
  close(): Promise<void>;
}

export function memoryRoomStore(idleRoomTtlSeconds: number, now: () => number = Date.now): RoomStore {
  const rooms = new Map<string, { room: Room; touchedAt: number }>();
  const members = new Map<string, Map<string, Member>>();

  function forgetIdleRooms() {
    const oldest = now() - idleRoomTtlSeconds * 1000;
    for (const [id, entry] of rooms) {
      if (entry.touchedAt < oldest && !members.get(id)?.size) rooms.delete(id);
    }
  }

  return {
    async saveRoom(room) {
      forgetIdleRooms();
      rooms.set(room.id, { room, touchedAt: now() });
    },
    async findRoom(roomId) {
      return rooms.get(roomId)?.room ?? null;
    },
    async join(room, member) {
      const entry = rooms.get(room.id);
      if (entry) entry.touchedAt = now();
      let inRoom = members.get(room.id);
      if (!inRoom) members.set(room.id, (inRoom = new Map()));
      const existing = inRoom.get(member.sessionId);
      const others = [...inRoom.values()].filter((m) => m.sessionId !== member.sessionId);
      if (existing) {
        if (existing.userId !== member.userId) return { status: 'taken' };
        inRoom.set(member.sessionId, member);
        return { status: 'rejoined', others, gone: [] };
      }
      if (inRoom.size >= room.capacity) return { status: 'full' };
      inRoom.set(member.sessionId, member);
      return { status: 'joined', others, gone: [] };
    },
    async member(roomId, sessionId) {
      return members.get(roomId)?.get(sessionId) ?? null;
    },
    async attach(roomId, sessionId, userId, connectionId) {
      const existing = members.get(roomId)?.get(sessionId);
      if (!existing || existing.userId !== userId) return null;
      existing.connectionId = connectionId;
      return existing;
    },
    async leave(roomId, sessionId, connectionId) {
      const inRoom = members.get(roomId);
      const existing = inRoom?.get(sessionId);
      if (!inRoom || !existing) return null;
      if (connectionId !== undefined && existing.connectionId !== connectionId) return null;
      inRoom.delete(sessionId);
      if (!inRoom.size) {
        members.delete(roomId);
        const entry = rooms.get(roomId);
        if (entry) entry.touchedAt = now();
      }
      return existing;
    },
    async close() {},
  };
}

// Every member remembers the server process that holds it; each process keeps a heartbeat key alive.
// A process that dies without leaving stops its heartbeat, and the members it held are dropped the
// next time someone joins their room, instead of holding places until the room expires.
const HEARTBEAT_TTL_SECONDS = 30;
const HEARTBEAT_EVERY_MS = 10_000;

// Drops members whose process has no heartbeat, keeping their JSON in the Lua table gone.
// ARGV[6] is the heartbeat key prefix.
const pruneDeadMembers = `
local gone = {}
local all = redis.call('HGETALL', KEYS[1])
for i = 1, #all, 2 do
  local m = cjson.decode(all[i + 1])
  if m.process and redis.call('EXISTS', ARGV[6] .. m.process) == 0 then
    redis.call('HDEL', KEYS[1], all[i])
    table.insert(gone, all[i + 1])
  end
end
`;

// KEYS[1] the room's member hash. ARGV: sessionId, member JSON, capacity, userId, ttl seconds,
// heartbeat key prefix. Answers {status, number of gone members, gone..., others...}.
const joinScript = `${pruneDeadMembers}
local function answer(status)
  local result = {status, #gone}
  for _, m in ipairs(gone) do table.insert(result, m) end
  local members = redis.call('HGETALL', KEYS[1])
  for i = 1, #members, 2 do if members[i] ~= ARGV[1] then table.insert(result, members[i + 1]) end end
  return result
end
local existing = redis.call('HGET', KEYS[1], ARGV[1])
if existing then
  if tostring(cjson.decode(existing).userId) ~= ARGV[4] then return {'taken'} end
  local result = answer('rejoined')
  redis.call('HSET', KEYS[1], ARGV[1], ARGV[2])
  redis.call('EXPIRE', KEYS[1], ARGV[5])
  return result
end
if redis.call('HLEN', KEYS[1]) >= tonumber(ARGV[3]) then return {'full'} end
local result = answer('joined')
redis.call('HSET', KEYS[1], ARGV[1], ARGV[2])
redis.call('EXPIRE', KEYS[1], ARGV[5])
return result
`;

// KEYS[1] the member hash. ARGV: sessionId, connectionId ('' for any), userId ('' for any), new connectionId
// ('' to remove), the process that holds it from now on.
const updateScript = `
local existing = redis.call('HGET', KEYS[1], ARGV[1])
if not existing then return false end
local member = cjson.decode(existing)
if ARGV[2] ~= '' and member.connectionId ~= ARGV[2] then return false end
if ARGV[3] ~= '' and tostring(member.userId) ~= ARGV[3] then return false end
if ARGV[4] == '' then
  redis.call('HDEL', KEYS[1], ARGV[1])
  return existing
end
member.connectionId = ARGV[4]
member.process = ARGV[5]
local updated = cjson.encode(member)
redis.call('HSET', KEYS[1], ARGV[1], updated)
return updated
`;

export function redisRoomStore(
  redis: Redis,
  prefix: string,
  idleRoomTtlSeconds: number,
  processId: string = randomUUID(),
): RoomStore {
  const roomKey = (id: string) => `${prefix}room:${id}`;
  const membersKey = (id: string) => `${prefix}room:${id}:members`;
  const heartbeatPrefix = `${prefix}process:`;
  const parse = (raw: string): Member => {
    const { process: _process, ...member } = JSON.parse(raw) as Member & { process?: string };
    return member;
  };

  const beat = () =>
    redis.set(`${heartbeatPrefix}${processId}`, '1', 'EX', HEARTBEAT_TTL_SECONDS).catch(() => {
      // Redis away for a moment: the next beat comes within the key's lifetime.
    });
  void beat();
  const heartbeat = setInterval(beat, HEARTBEAT_EVERY_MS);
  heartbeat.unref();

  return {
    async saveRoom(room) {
      await redis.set(roomKey(room.id), JSON.stringify(room), 'EX', idleRoomTtlSeconds);
    },
    async findRoom(roomId) {
      const raw = await redis.get(roomKey(roomId));
      return raw ? (JSON.parse(raw) as Room) : null;
    },
    async join(room, member) {
      // A room in use stays known as long as its members do.
      await redis.expire(roomKey(room.id), idleRoomTtlSeconds);
      const [status, goneCount, ...rest] = (await redis.eval(
        joinScript,
        1,
        membersKey(room.id),
        member.sessionId,
        JSON.stringify({ ...member, process: processId }),
        String(room.capacity),
        String(member.userId),
        String(idleRoomTtlSeconds),
        heartbeatPrefix,
      )) as [string, number, ...string[]];
      if (status === 'joined' || status === 'rejoined') {
        return { status, gone: rest.slice(0, goneCount).map(parse), others: rest.slice(goneCount).map(parse) };
      }
      return { status: status as 'full' | 'taken' };
    },
    async member(roomId, sessionId) {
      const raw = await redis.hget(membersKey(roomId), sessionId);
      return raw ? parse(raw) : null;
    },
    async attach(roomId, sessionId, userId, connectionId) {
      const raw = (await redis.eval(updateScript, 1, membersKey(roomId), sessionId, '', String(userId), connectionId, processId)) as
        | string
        | null;
      return raw ? parse(raw) : null;
    },
    async leave(roomId, sessionId, connectionId) {
      const raw = (await redis.eval(updateScript, 1, membersKey(roomId), sessionId, connectionId ?? '', '', '', processId)) as
        | string
        | null;
      return raw ? parse(raw) : null;
    },
    async close() {
      clearInterval(heartbeat);
      // Its sockets are closed: the places they held may be taken at once, not a heartbeat later.
      await redis.del(`${heartbeatPrefix}${processId}`).catch(() => undefined);
    },
  };
}
