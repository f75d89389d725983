// What happens to a member beyond its own requests: leaving (now, or after a dropped connection's grace
// period), losing its place to the same account's newer connection, and losing it when the shared
// room state could not be rebuilt after a Redis outage. Each time the others in the room are told.
import type { FastifyInstance } from 'fastify';
import { recordLeave } from './attendance';
import type { Recovery } from './mirrored-room-store';
import type { Member, RoomStore } from './room-store';
import { peerChannel, roomChannel, type RealtimeServer } from './sockets';

interface MembershipOptions {
  /** Rooms span several processes (the Redis adapter). */
  clustered: boolean;
  /** Settles when broadcasts reach the other processes again, after an outage. */
  whenBroadcasting(): Promise<void> | undefined;
  /** Hears that a member is out of a room, however it went (moderation.ts drops its hand). */
  onLeft?(roomId: string, member: Member): void;
}

export function roomMembership(app: FastifyInstance, io: RealtimeServer, store: RoomStore, options: MembershipOptions) {
  /** Delayed leaves of dropped connections, by room and peer, with the class session of the room. */
  const graceTimers = new Map<string, { timer: NodeJS.Timeout; classSessionId: number | null }>();
  const graceKey = (roomId: string, userId: number, sessionId: string) => `${roomId}|${userId}|${sessionId}`;

  // The Redis adapter applies socketsLeave and disconnectSockets on this process only when the request
  // comes back through Redis: do this process's part at once, so it holds while Redis is away.
  function leaveChannel(userId: number, sessionId: string, roomId: string) {
    io.local.in(peerChannel(userId, sessionId)).socketsLeave(roomChannel(roomId));
    if (options.clustered) io.in(peerChannel(userId, sessionId)).socketsLeave(roomChannel(roomId));
  }

  function cancelGrace(roomId: string, userId: number, sessionId: string) {
    const key = graceKey(roomId, userId, sessionId);
    const pending = graceTimers.get(key);
    clearTimeout(pending?.timer);
    graceTimers.delete(key);
    return pending;
  }

  async function leave(roomId: string, classSessionId: number | null, userId: number, sessionId: string, connectionId: string) {
    const left = await store.leave(roomId, sessionId, connectionId);
    if (!left) return;
    // Every connection of that peer leaves the channel, wherever it is, and the others are told.
    leaveChannel(userId, sessionId, roomId);
    io.to(roomChannel(roomId)).emit('action:terminate_peer_connection', { userId: sessionId });
    options.onLeft?.(roomId, left);
    // Gone for good (asked to, or the grace ran out): a recording they were making stops (recordings/live.ts).
    app.liveRecordings.memberLeft(roomId, userId);
    if (classSessionId !== null) await recordLeave(app.db, classSessionId, userId);
  }

  /** Takes a member out of the room without it asking: its channel, this process's record of it, the others. */
  function takeOut(roomId: string, member: Member) {
    cancelGrace(roomId, member.userId, member.sessionId);
    io.sockets.sockets.get(member.connectionId)?.data.rooms.delete(roomId);
    leaveChannel(member.userId, member.sessionId, roomId);
    io.to(roomChannel(roomId)).emit('action:terminate_peer_connection', { userId: member.sessionId });
    options.onLeft?.(roomId, member);
  }

  /**
   * The same account's newer connection took this member's place: it is out of the room and told so.
   * Its visit goes on in the newer place, so attendance does not change.
   */
  function displace(roomId: string, member: Member) {
    takeOut(roomId, member);
    io.to(peerChannel(member.userId, member.sessionId)).emit('action:replaced_elsewhere', { roomId });
  }

  async function recovered({ lost, displaced }: Recovery) {
    // The others in those rooms may be on other processes: speak once they can hear.
    await options.whenBroadcasting();
    for (const { roomId, member } of displaced) displace(roomId, member);
    for (const { roomId, member, status } of lost) {
      const socket = io.sockets.sockets.get(member.connectionId);
      const classSessionId = socket?.data.rooms.get(roomId)?.classSessionId ?? graceTimers.get(graceKey(roomId, member.userId, member.sessionId))?.classSessionId ?? null;
      if (status === 'replaced') {
        displace(roomId, member);
      } else if (status === 'moved') {
        // The same peer connected again on another process meanwhile, which holds the place now: this
        // older connection is replaced, as a second connection with the same sessionId always does.
        cancelGrace(roomId, member.userId, member.sessionId);
        socket?.data.rooms.delete(roomId);
        socket?.disconnect(true);
      } else {
        // Full by now, or the sessionId went to someone else: out, as if it had left, and asked to join
        // again, which decides anew.
        takeOut(roomId, member);
        if (classSessionId !== null) await recordLeave(app.db, classSessionId, member.userId);
        socket?.data.rejoining.add(roomId);
        socket?.emit('action:rejoin_required', { roomId });
      }
    }
  }

  return {
    leave,
    cancelGrace,
    displace,

    /** A dropped connection keeps its place for the grace period, then leaves. */
    startGrace(roomId: string, classSessionId: number | null, userId: number, sessionId: string, connectionId: string, graceMs: number) {
      const key = graceKey(roomId, userId, sessionId);
      clearTimeout(graceTimers.get(key)?.timer);
      const timer = setTimeout(() => {
        graceTimers.delete(key);
        leave(roomId, classSessionId, userId, sessionId, connectionId).catch((error: unknown) =>
          app.log.error({ err: error }, 'leaving after a disconnect failed'),
        );
      }, graceMs);
      graceTimers.set(key, { timer, classSessionId });
    },

    /** Disconnects the other connections of a peer, on this process and the others. */
    replaceConnection(userId: number, sessionId: string, keep: string) {
      io.local.in(peerChannel(userId, sessionId)).except(keep).disconnectSockets(true);
      if (options.clustered) io.in(peerChannel(userId, sessionId)).except(keep).disconnectSockets(true);
    },

    /** Tells those who lost their place while the shared room state was rebuilt. */
    recovered(recovery: Recovery) {
      recovered(recovery).catch((error: unknown) => app.log.error({ err: error }, 'telling members about a rebuilt room failed'));
    },

    stop() {
      for (const { timer } of graceTimers.values()) clearTimeout(timer);
      graceTimers.clear();
    },
  };
}

export type RoomMembership = ReturnType<typeof roomMembership>;
