// Moderation, running a class (contract "Running a class"): raised hands, the host's room controls and the
// lobby, all decided here. The host is the room's `created_by` (a session's teacher, an ad hoc room's
// creator) or an admin; a control from anyone else is answered `Not allowed` and changes nothing.
// The server cannot stop anyone's media: the target's client obeys `action:moderated`; what the server
// can hold it holds (the microphone lock, told to every joiner; removals refused at the door).
import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { fillMessage, messages } from '@mooz/contract/messages';
import {
  admitPayload,
  lowerHandsPayload,
  moderatePayload,
  raiseHandPayload,
  realtimeLimits,
  setLobbyPayload,
  type LobbyWait,
  type ModerationAction,
  type Room,
  type RoomControls,
} from '@mooz/contract/realtime';
import { classSessions } from '../db/schema/index';
import type { AuthUser } from '../http/authenticate';
import type { KnownRoom, RoomAdmission } from './admission';
import type { RoomControlsStore } from './room-controls-store';
import type { RoomMembership } from './membership';
import type { Member, RoomStore } from './room-store';
import { peerChannel, roomChannel, type MeetingSocket, type RealtimeServer } from './sockets';

type Reply = (res: unknown) => void;
type Handle = <P>(
  event: 'request:raise_hand' | 'request:lower_hands' | 'request:moderate' | 'request:set_lobby' | 'request:admit',
  run: (payload: P, reply: Reply) => Promise<void>,
) => void;

export const isHost = (user: Pick<AuthUser, 'id' | 'userType'>, room: Room) =>
  user.userType === 'admin' || (room.created_by !== null && room.created_by === user.id);

/** The actions that need a target, and the ones that reach only the target. */
const targeted: ReadonlySet<ModerationAction> = new Set(['mute', 'stop_camera', 'stop_screen', 'remove']);

export function moderation(
  app: FastifyInstance,
  io: RealtimeServer,
  store: RoomStore,
  controls: RoomControlsStore,
  admission: RoomAdmission,
  membership: RoomMembership,
) {
  /** Which sockets of this process wait in which lobbies, to drop them on disconnect. */
  const waitingSockets = new Map<string, Set<string>>();

  async function snapshot(roomId: string): Promise<RoomControls> {
    const [adHoc, members, hostIds, hands, unmuteLocked, privateChatLocked, lobbyEnabled] = await Promise.all([
      store.findRoom(roomId),
      store.list(roomId),
      controls.hostSessions(roomId),
      controls.hands(roomId),
      controls.locked(roomId, 'unmute'),
      controls.locked(roomId, 'private_chat'),
      controls.lobbyEnabled(roomId),
    ]);
    const present = new Set(members.map((m) => m.peerId));
    // Ad hoc rooms are the store's; any other room is a class session's.
    const classSession = adHoc === null;
    return {
      roomId,
      hosts: hostIds.filter((id) => present.has(id)),
      unmuteLocked,
      lobbyEnabled: classSession || lobbyEnabled,
      classSession,
      // A hand of someone gone is not shown, even if their leave was not heard here.
      hands: hands.filter((hand) => present.has(hand.userId)),
      privateChatLocked,
    };
  }

  async function broadcast(roomId: string) {
    io.to(roomChannel(roomId)).emit('action:room_controls', await snapshot(roomId));
  }

  /** The room's hosts present now, as members. */
  async function hostMembers(roomId: string): Promise<Member[]> {
    const ids = await controls.hostSessions(roomId);
    return (await store.members(roomId, ids)).filter((m): m is Member => m !== null);
  }

  async function tellHostsAboutLobby(roomId: string) {
    const hosts = await hostMembers(roomId);
    if (!hosts.length) return;
    const waiting = (await controls.waiting(roomId)).map(({ userId, userName, since }) => ({
      userId,
      userName,
      since,
    }));
    io.to(hosts.map((h) => peerChannel(h.userId, h.peerId))).emit('action:lobby', { roomId, waiting });
  }

  function trackWaiting(socketId: string, roomId: string, waiting: boolean) {
    const rooms = waitingSockets.get(socketId) ?? new Set<string>();
    if (waiting) rooms.add(roomId);
    else rooms.delete(roomId);
    if (rooms.size) waitingSockets.set(socketId, rooms);
    else waitingSockets.delete(socketId);
  }

  /** Takes a member out of the room on the host's say-so: the others are told, attendance closes. */
  async function takeOut(roomId: string, sessionId: number | null, member: Member) {
    io.sockets.sockets.get(member.connectionId)?.data.rooms.delete(roomId);
    await membership.leave(roomId, sessionId, member.userId, member.peerId, member.connectionId);
  }

  /** How long a removal holds: while an ad hoc room may exist, or until a class session ends. */
  async function removalSeconds(sessionId: number | null): Promise<number> {
    if (sessionId === null) return realtimeLimits.idleRoomTtlSeconds;
    const [row] = await app.db
      .select({ endsAt: classSessions.endsAt })
      .from(classSessions)
      .where(eq(classSessions.id, sessionId));
    const untilEnd = row ? (row.endsAt.getTime() - Date.now()) / 1000 : 0;
    return Math.max(realtimeLimits.idleRoomTtlSeconds, untilEnd);
  }

  /**
   * Whether this join goes ahead (null), is refused, or waits in the lobby. Removed accounts and ended
   * ad hoc rooms are refused; hosts always enter; a class session's outsiders (`guest`) and anyone
   * joining an ad hoc room with its lobby on wait until a host admits their account.
   */
  async function gate(
    socket: MeetingSocket,
    known: KnownRoom & { guest: boolean },
    userName: string,
  ): Promise<null | { error: string } | LobbyWait> {
    const { user, peerId } = socket.data;
    const { room, sessionId } = known;
    const removedBy = await controls.removedBy(room.id, user.id);
    if (removedBy !== null) return { error: fillMessage(messages.removedFromRoom, { name: removedBy }) };
    if (sessionId === null) {
      const endedBy = await controls.endedBy(room.id);
      if (endedBy !== null) return { error: fillMessage(messages.classEndedBy, { name: endedBy }) };
    }
    if (isHost(user, room)) return null;
    const lobby = known.guest || (sessionId === null && (await controls.lobbyEnabled(room.id)));
    if (!lobby || (await controls.admitted(room.id, user.id))) return null;
    await controls.wait(room.id, { userId: peerId, userName, since: new Date().toISOString(), accountId: user.id });
    trackWaiting(socket.id, room.id, true);
    await tellHostsAboutLobby(room.id);
    return { lobby: { roomId: room.id, roomName: room.name } };
  }

  /** After a join: a host is recorded as one; the joiner hears how the room is run (everyone, when a host came). */
  async function joined(socket: MeetingSocket, room: Room) {
    const { user, peerId } = socket.data;
    if (await controls.unwait(room.id, peerId)) {
      trackWaiting(socket.id, room.id, false);
      await tellHostsAboutLobby(room.id);
    }
    if (isHost(user, room)) {
      await controls.addHost(room.id, peerId);
      await broadcast(room.id);
      const waiting = (await controls.waiting(room.id)).map(({ userId, userName, since }) => ({
        userId,
        userName,
        since,
      }));
      socket.emit('action:lobby', { roomId: room.id, waiting });
    } else {
      socket.emit('action:room_controls', await snapshot(room.id));
    }
  }

  return {
    /** The door of a room (gate above). */
    async gate(
      socket: MeetingSocket,
      known: KnownRoom & { guest: boolean },
      userName: string,
    ): Promise<null | { error: string } | LobbyWait> {
      try {
        return await gate(socket, known, userName);
      } catch (error) {
        // The shared state is out of reach (a Redis outage): meetings go on, so the door stays open to
        // those the room's own rules admit (a class session's outsiders still are not).
        app.log.warn({ err: error }, 'room controls unavailable; admitting by the room rules alone');
        return known.guest ? { error: messages.notAllowed } : null;
      }
    },

    /** After a join (joined above). */
    async joined(socket: MeetingSocket, room: Room) {
      await joined(socket, room).catch((error: unknown) =>
        app.log.warn({ err: error }, 'room controls unavailable after a join'),
      );
    },

    /** A member is gone (left, dropped, removed, replaced): their hand goes, and a host is no longer one. */
    left(roomId: string, member: Member) {
      Promise.all([controls.lower(roomId, member.peerId), controls.dropHost(roomId, member.peerId)])
        .then(() => broadcast(roomId))
        .catch((error: unknown) => app.log.error({ err: error }, 'updating room controls after a leave failed'));
    },

    /** The requests of one connection, run through its queue and rate limit (connection.ts). */
    serve(socket: MeetingSocket, handle: Handle) {
      const { user, peerId } = socket.data;

      /** The room and this member when they are in it now. */
      async function inRoom(roomId: string) {
        const joined = socket.data.rooms.get(roomId);
        if (!joined) return null;
        const [self] = await store.members(roomId, [peerId]);
        if (self?.userId !== user.id) return null;
        const known = await admission.lookup(roomId);
        if (!known) return null;
        return { self, room: known.room, sessionId: joined.sessionId };
      }
      async function asHost(roomId: string) {
        const found = await inRoom(roomId);
        return found && isHost(user, found.room) ? found : null;
      }

      handle<unknown>('request:raise_hand', async (payload, reply) => {
        const parsed = raiseHandPayload.safeParse(payload);
        if (!parsed.success) return reply({ error: messages.validationFailed });
        const { roomId, raised } = parsed.data;
        const found = await inRoom(roomId);
        if (!found) return reply({ error: messages.notAllowed });
        if (raised)
          await controls.raise(roomId, {
            userId: peerId,
            userName: found.self.userName,
            raisedAt: new Date().toISOString(),
          });
        else await controls.lower(roomId, peerId);
        await broadcast(roomId);
        reply({ raised });
      });

      handle<unknown>('request:lower_hands', async (payload, reply) => {
        const parsed = lowerHandsPayload.safeParse(payload);
        if (!parsed.success) return reply({ error: messages.validationFailed });
        const { roomId, userId } = parsed.data;
        if (!(await asHost(roomId))) return reply({ error: messages.notAllowed });
        const lowered = await controls.lower(roomId, userId);
        await broadcast(roomId);
        reply({ lowered });
      });

      handle<unknown>('request:moderate', async (payload, reply) => {
        const parsed = moderatePayload.safeParse(payload);
        if (!parsed.success) return reply({ error: messages.validationFailed });
        const { roomId, action, target } = parsed.data;
        if (targeted.has(action) && !target) return reply({ error: messages.validationFailed });
        const host = await asHost(roomId);
        if (!host) return reply({ error: messages.notAllowed });
        const byName = host.self.userName;
        const hostIds = new Set(await controls.hostSessions(roomId));

        if (targeted.has(action)) {
          const [member] = await store.members(roomId, [target!]);
          // Only someone in the room, never oneself; a host is never removed by another host.
          if (!member || member.peerId === peerId || (action === 'remove' && hostIds.has(member.peerId))) {
            return reply({ error: messages.notAllowed });
          }
          if (action === 'remove') {
            await controls.remove(roomId, member.userId, byName, await removalSeconds(host.sessionId));
            await controls.lower(roomId, member.peerId);
            io.to(peerChannel(member.userId, member.peerId)).emit('action:room_closed', {
              roomId,
              reason: 'removed',
              byName,
            });
            await takeOut(roomId, host.sessionId, member);
          } else {
            const unmuteLocked = !hostIds.has(member.peerId) && (await controls.locked(roomId, 'unmute'));
            io.to(peerChannel(member.userId, member.peerId)).emit('action:moderated', {
              roomId,
              action,
              byName,
              unmuteLocked,
            });
          }
          return reply({ done: true });
        }

        if (action === 'mute_all') {
          const unmuteLocked = await controls.locked(roomId, 'unmute');
          const others = (await store.list(roomId)).filter(
            (m) => !hostIds.has(m.peerId) && m.peerId !== peerId,
          );
          if (others.length) {
            io.to(others.map((m) => peerChannel(m.userId, m.peerId))).emit('action:moderated', {
              roomId,
              action,
              byName,
              unmuteLocked,
            });
          }
        } else if (action === 'lock_unmute' || action === 'unlock_unmute') {
          await controls.setLocked(roomId, 'unmute', action === 'lock_unmute');
          await broadcast(roomId);
        } else if (action === 'lock_private_chat' || action === 'unlock_private_chat') {
          await controls.setLocked(roomId, 'private_chat', action === 'lock_private_chat');
          await broadcast(roomId);
        } else if (action === 'end_class') {
          const members = await store.list(roomId);
          io.to(roomChannel(roomId)).emit('action:room_closed', { roomId, reason: 'ended', byName });
          if (host.sessionId !== null) {
            // The session is over now: it shows as ended and the join window rule refuses joins.
            await app.db
              .update(classSessions)
              .set({ endsAt: new Date() })
              .where(eq(classSessions.id, host.sessionId));
          } else {
            await controls.end(roomId, byName);
          }
          for (const waiting of await controls.waiting(roomId)) {
            io.to(peerChannel(waiting.accountId, waiting.userId)).emit('action:lobby_decision', {
              roomId,
              admitted: false,
            });
          }
          await controls.reset(roomId);
          for (const member of members) await takeOut(roomId, host.sessionId, member);
        }
        reply({ done: true });
      });

      handle<unknown>('request:set_lobby', async (payload, reply) => {
        const parsed = setLobbyPayload.safeParse(payload);
        if (!parsed.success) return reply({ error: messages.validationFailed });
        const { roomId, enabled } = parsed.data;
        const host = await asHost(roomId);
        // Class sessions always send outsiders to the lobby: only an ad hoc room's can be switched.
        if (!host || host.sessionId !== null) return reply({ error: messages.notAllowed });
        await controls.setLobby(roomId, enabled);
        if (!enabled) {
          // Turning the lobby off lets in whoever was waiting.
          for (const waiting of await controls.waiting(roomId)) {
            await controls.unwait(roomId, waiting.userId);
            await controls.admit(roomId, waiting.accountId);
            io.to(peerChannel(waiting.accountId, waiting.userId)).emit('action:lobby_decision', {
              roomId,
              admitted: true,
            });
          }
          await tellHostsAboutLobby(roomId);
        }
        await broadcast(roomId);
        reply({ enabled });
      });

      handle<unknown>('request:admit', async (payload, reply) => {
        const parsed = admitPayload.safeParse(payload);
        if (!parsed.success) return reply({ error: messages.validationFailed });
        const { roomId, userId, admit } = parsed.data;
        if (!(await asHost(roomId))) return reply({ error: messages.notAllowed });
        const entry = await controls.unwait(roomId, userId);
        if (!entry) return reply({ error: messages.notAllowed });
        if (admit) await controls.admit(roomId, entry.accountId);
        io.to(peerChannel(entry.accountId, entry.userId)).emit('action:lobby_decision', { roomId, admitted: admit });
        await tellHostsAboutLobby(roomId);
        reply({ done: true });
      });

      socket.on('disconnect', () => {
        const rooms = waitingSockets.get(socket.id);
        waitingSockets.delete(socket.id);
        for (const roomId of rooms ?? []) {
          controls
            .unwait(roomId, peerId)
            .then((entry) => (entry ? tellHostsAboutLobby(roomId) : undefined))
            .catch((error: unknown) => app.log.error({ err: error }, 'leaving a lobby failed'));
        }
      });
    },
  };
}

export type Moderation = ReturnType<typeof moderation>;
