// Who is in which meeting room. One interface, three homes: process memory for a single server
// (memory-room-store.ts), Redis when several servers share meetings (here: membership and the capacity
// check are one atomic script), and Redis with a local mirror that carries this process's rooms through
// a Redis outage (mirrored-room-store.ts).
//
// The rules every home enforces on a join: a room holds `capacity` people, but its host (`created_by`:
// a session's teacher, an ad hoc room's creator) is admitted even when it is full; one account holds
// one place per room, so a join with another peerId takes the place over; a peerId is one
// person's in a room.
import { randomUUID } from 'node:crypto';
import type { Redis } from 'ioredis';
import type { Room } from '@mooz/contract/realtime';
import { joinScript, restoreScript, updateScript } from './room-scripts';

export interface Member {
  /** The peer's id in the room: the client's peerId. */
  peerId: string;
  userId: number;
  userName: string;
  /** The socket that holds the place now; a disconnect's delayed leave only applies while it still does. */
  connectionId: string;
  /** When that socket took the place (ms): the newer connection wins when two processes both claim it. */
  connectedAt: number;
}

export type JoinResult =
  /**
   * A new member; `others` were there before; `gone` were dropped because their server died; `replaced`
   * are the same account's other places in the room, which this join took over.
   */
  | { status: 'joined'; others: Member[]; gone: Member[]; replaced: Member[] }
  /** The same person and peerId were already in (a reload or a second connection); now on this connection. */
  | { status: 'rejoined'; others: Member[]; gone: Member[]; replaced: Member[] }
  | { status: 'full' }
  /** The peerId is someone else's in this room. */
  | { status: 'taken' };

export interface RoomStore {
  saveRoom(room: Room): Promise<void>;
  findRoom(roomId: string): Promise<Room | null>;
  join(room: Room, member: Member): Promise<JoinResult>;
  member(roomId: string, peerId: string): Promise<Member | null>;
  /** Several members of one room in one look-up, in the order asked (null for those not in it). */
  members(roomId: string, sessionIds: string[]): Promise<(Member | null)[]>;
  /**
   * A member as held, answered at once, by a store whose process holds the whole truth (the memory
   * store); absent from stores that must ask elsewhere. For reading only: the relay's check of both
   * ends, so a message needs no promise when nothing else of that connection is pending.
   */
  peek?(roomId: string, peerId: string): Readonly<Member> | null;
  /** Everyone in a room now (moderation.ts: hosts, mute all, end the class). */
  list(roomId: string): Promise<Member[]>;
  /**
   * Moves a member back onto a new connection of the same user; null when they are no longer in.
   * `room` is the room it belongs to, when known, for a store that must remember its capacity.
   */
  attach(roomId: string, peerId: string, userId: number, connectionId: string, room?: Room): Promise<Member | null>;
  /** Removes a member; with `connectionId`, only while that connection still holds the place. */
  leave(roomId: string, peerId: string, connectionId?: string): Promise<Member | null>;
  /** Stops this process's share of the store (its liveness signal, for the Redis store). */
  close(): Promise<void>;
}

/** What putting one member back after an outage came to (room-scripts.ts, restoreScript). */
export type RestoreStatus = 'kept' | 'restored' | 'full' | 'taken' | 'moved' | 'replaced';

export interface RedisRoomStore extends RoomStore {
  /** Renews this process's heartbeat now; rejects when Redis cannot be reached. */
  heartbeat(): Promise<void>;
  /** Saves ad hoc rooms Redis may have lost, leaving those it still has as they are. */
  resaveRooms(rooms: Room[]): Promise<void>;
  /**
   * Puts this process's members of a room back (all of them, in join order; none to only drop the ones
   * recorded as this process's). `room` gives the capacity and host; null when no member is given.
   */
  restore(roomId: string, room: Room | null, members: Member[]): Promise<{ statuses: RestoreStatus[]; displaced: Member[] }>;
}

// Every member remembers the server process that holds it; each process keeps a heartbeat key alive.
// A process that dies without leaving stops its heartbeat, and the members it held are dropped the
// next time someone joins their room, instead of holding places until the room expires.
const HEARTBEAT_TTL_SECONDS = 30;
const HEARTBEAT_EVERY_MS = 10_000;

export function redisRoomStore(
  redis: Redis,
  prefix: string,
  idleRoomTtlSeconds: number,
  processId: string = randomUUID(),
): RedisRoomStore {
  const roomKey = (id: string) => `${prefix}room:${id}`;
  const membersKey = (id: string) => `${prefix}room:${id}:members`;
  const heartbeatPrefix = `${prefix}process:`;
  const parse = (raw: string): Member => {
    const { process: _process, ...member } = JSON.parse(raw) as Member & { process?: string };
    return member;
  };
  const stored = (member: Member) => JSON.stringify({ ...member, process: processId });

  const heartbeat = async () => {
    await redis.set(`${heartbeatPrefix}${processId}`, '1', 'EX', HEARTBEAT_TTL_SECONDS);
  };
  const beat = () =>
    heartbeat().catch(() => {
      // Redis away for a moment: the next beat comes within the key's lifetime.
    });
  void beat();
  const beating = setInterval(beat, HEARTBEAT_EVERY_MS);
  beating.unref();

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
      const [status, goneCount, replacedCount, ...rest] = (await redis.eval(
        joinScript,
        1,
        membersKey(room.id),
        member.peerId,
        stored(member),
        String(room.capacity),
        String(member.userId),
        String(idleRoomTtlSeconds),
        heartbeatPrefix,
        String(room.created_by ?? ''),
      )) as [string, number, number, ...string[]];
      if (status === 'joined' || status === 'rejoined') {
        return {
          status,
          gone: rest.slice(0, goneCount).map(parse),
          replaced: rest.slice(goneCount, goneCount + replacedCount).map(parse),
          others: rest.slice(goneCount + replacedCount).map(parse),
        };
      }
      return { status: status as 'full' | 'taken' };
    },
    async member(roomId, peerId) {
      const raw = await redis.hget(membersKey(roomId), peerId);
      return raw ? parse(raw) : null;
    },
    async members(roomId, sessionIds) {
      if (!sessionIds.length) return [];
      const raws = await redis.hmget(membersKey(roomId), ...sessionIds);
      return raws.map((raw) => (raw ? parse(raw) : null));
    },
    async list(roomId) {
      return Object.values(await redis.hgetall(membersKey(roomId))).map(parse);
    },
    async attach(roomId, peerId, userId, connectionId) {
      const raw = (await redis.eval(
        updateScript,
        1,
        membersKey(roomId),
        peerId,
        '',
        String(userId),
        connectionId,
        processId,
        String(Date.now()),
      )) as string | null;
      return raw ? parse(raw) : null;
    },
    async leave(roomId, peerId, connectionId) {
      const raw = (await redis.eval(updateScript, 1, membersKey(roomId), peerId, connectionId ?? '', '', '', processId, '0')) as
        | string
        | null;
      return raw ? parse(raw) : null;
    },
    heartbeat,
    async resaveRooms(rooms) {
      if (!rooms.length) return;
      const batch = redis.multi();
      for (const room of rooms) batch.set(roomKey(room.id), JSON.stringify(room), 'EX', idleRoomTtlSeconds, 'NX');
      await batch.exec();
    },
    async restore(roomId, room, members) {
      const answer = (await redis.eval(
        restoreScript,
        1,
        membersKey(roomId),
        processId,
        String(room?.capacity ?? 0),
        String(room?.created_by ?? ''),
        String(idleRoomTtlSeconds),
        ...members.map(stored),
      )) as string[];
      return {
        statuses: answer.slice(0, members.length) as RestoreStatus[],
        displaced: answer.slice(members.length).map(parse),
      };
    },
    async close() {
      clearInterval(beating);
      // Its sockets are closed: the places they held may be taken at once, not a heartbeat later.
      await redis.del(`${heartbeatPrefix}${processId}`).catch(() => undefined);
    },
  };
}
