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
  const graceTimers = new Map<string, { timer: NodeJS.Timeout; sessionId: number | null }>();
  const graceKey = (roomId: string, userId: number, peerId: string) => `${roomId}|${userId}|${peerId}`;

  // The Redis adapter applies socketsLeave and disconnectSockets on this process only when the request
  // comes back through Redis: do this process's part at once, so it holds while Redis is away.
  function leaveChannel(userId: number, peerId: string, roomId: string) {
    io.local.in(peerChannel(userId, peerId)).socketsLeave(roomChannel(roomId));
    if (options.clustered) io.in(peerChannel(userId, peerId)).socketsLeave(roomChannel(roomId));
  }

  function cancelGrace(roomId: string, userId: number, peerId: string) {
    const key = graceKey(roomId, userId, peerId);
    const pending = graceTimers.get(key);
    clearTimeout(pending?.timer);
    graceTimers.delete(key);
    return pending;
  }

  async function leave(roomId: string, sessionId: number | null, userId: number, peerId: string, connectionId: string) {
    const left = await store.leave(roomId, peerId, connectionId);
    if (!left) return;
    // Every connection of that peer leaves the channel, wherever it is, and the others are told.
    leaveChannel(userId, peerId, roomId);
    io.to(roomChannel(roomId)).emit('action:terminate_peer_connection', { userId: peerId });
    options.onLeft?.(roomId, left);
    // Gone for good (asked to, or the grace ran out): a recording they were making stops (recordings/live.ts).
    app.liveRecordings.memberLeft(roomId, userId);
    if (sessionId !== null) await recordLeave(app.db, sessionId, userId);
  }

  /** Takes a member out of the room without it asking: its channel, this process's record of it, the others. */
  function takeOut(roomId: string, member: Member) {
    cancelGrace(roomId, member.userId, member.peerId);
    io.sockets.sockets.get(member.connectionId)?.data.rooms.delete(roomId);
    leaveChannel(member.userId, member.peerId, roomId);
    io.to(roomChannel(roomId)).emit('action:terminate_peer_connection', { userId: member.peerId });
    options.onLeft?.(roomId, member);
  }

  /**
   * The same account's newer connection took this member's place: it is out of the room and told so.
   * Its visit goes on in the newer place, so attendance does not change.
   */
  function displace(roomId: string, member: Member) {
    takeOut(roomId, member);
    io.to(peerChannel(member.userId, member.peerId)).emit('action:replaced_elsewhere', { roomId });
  }

  async function recovered({ lost, displaced }: Recovery) {
    // The others in those rooms may be on other processes: speak once they can hear.
    await options.whenBroadcasting();
    for (const { roomId, member } of displaced) displace(roomId, member);
    for (const { roomId, member, status } of lost) {
      const socket = io.sockets.sockets.get(member.connectionId);
      const sessionId = socket?.data.rooms.get(roomId)?.sessionId ?? graceTimers.get(graceKey(roomId, member.userId, member.peerId))?.sessionId ?? null;
      if (status === 'replaced') {
        displace(roomId, member);
      } else if (status === 'moved') {
        // The same peer connected again on another process meanwhile, which holds the place now: this
        // older connection is replaced, as a second connection with the same peerId always does.
        cancelGrace(roomId, member.userId, member.peerId);
        socket?.data.rooms.delete(roomId);
        socket?.disconnect(true);
      } else {
        // Full by now, or the peerId went to someone else: out, as if it had left, and asked to join
        // again, which decides anew.
        takeOut(roomId, member);
        if (sessionId !== null) await recordLeave(app.db, sessionId, member.userId);
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
    startGrace(roomId: string, sessionId: number | null, userId: number, peerId: string, connectionId: string, graceMs: number) {
      const key = graceKey(roomId, userId, peerId);
      clearTimeout(graceTimers.get(key)?.timer);
      const timer = setTimeout(() => {
        graceTimers.delete(key);
        leave(roomId, sessionId, userId, peerId, connectionId).catch((error: unknown) =>
          app.log.error({ err: error }, 'leaving after a disconnect failed'),
        );
      }, graceMs);
      graceTimers.set(key, { timer, sessionId });
    },

    /** Disconnects the other connections of a peer, on this process and the others. */
    replaceConnection(userId: number, peerId: string, keep: string) {
      io.local.in(peerChannel(userId, peerId)).except(keep).disconnectSockets(true);
      if (options.clustered) io.in(peerChannel(userId, peerId)).except(keep).disconnectSockets(true);
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
