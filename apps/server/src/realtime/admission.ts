// Which room an id names, and whether this person may enter it now: an ad hoc room admits any
// signed-in user with its id; a class session's room admits its teacher and the students allowed to
// see the session (access.ts), from `limits.sessionJoinEarlyMinutes` before it starts until it ends.
// The window is for everyone, teacher and admins included: it is when the class is on. A cancelled
// session's room takes no joins at all. A breakout group's room (breakouts/) is its main room's, under
// the group's id, for the hosts and the people placed in that group while the split is open.
import type { FastifyInstance } from 'fastify';
import { messages } from '@mooz/contract/messages';
import type { Room } from '@mooz/contract/realtime';
import { parseGroupRoomId } from '@mooz/contract/breakouts';
import type { AuthUser } from '../http/authenticate';
import { joinable, sessionForRoom, sessionOfRoom } from '../modules/sessions';
import type { RoomStore } from './room-store';
import { breakoutClosed, breakoutStore } from './breakouts/breakout-store';
import { isHost } from './moderation';

export interface KnownRoom {
  room: Room;
  /** The class session the room belongs to; null for an ad hoc room. */
  sessionId: number | null;
}

export function roomAdmission(app: FastifyInstance, store: RoomStore) {
  /** A class session's room, from the sessions module (the course's teacher is its host). */
  async function sessionRoom(roomId: string): Promise<KnownRoom | null> {
    const found = await sessionOfRoom(app.db, roomId);
    if (!found) return null;
    const { session, teacherId } = found;
    return {
      room: { id: session.roomId, name: session.title, capacity: session.capacity, created_by: teacherId },
      sessionId: session.id,
    };
  }

  const splits = breakoutStore(app.db);

  /** The split and group a group's room id names, when they exist. */
  async function groupOf(roomId: string) {
    const parsed = parseGroupRoomId(roomId);
    if (!parsed) return null;
    const breakout = await splits.find(parsed.breakoutId);
    if (!breakout || breakout.roomId !== parsed.mainRoomId || parsed.group >= breakout.groups) return null;
    return { breakout, group: parsed.group };
  }
  const asGroup = <T extends KnownRoom>(main: T, roomId: string): T => ({ ...main, room: { ...main.room, id: roomId } });

  async function lookup(roomId: string): Promise<KnownRoom | null> {
    const adHoc = await store.findRoom(roomId);
    if (adHoc) return { room: adHoc, sessionId: null };
    const group = await groupOf(roomId);
    if (group) {
      const main = await lookup(group.breakout.roomId);
      return main && asGroup(main, roomId);
    }
    return sessionRoom(roomId);
  }

  async function resolve(
    user: Pick<AuthUser, 'id' | 'userType'>,
    roomId: string,
    now = new Date(),
  ): Promise<(KnownRoom & { closed: string | null; guest: boolean }) | { error: string }> {
    const adHoc = await store.findRoom(roomId);
    if (adHoc) return { room: adHoc, sessionId: null, closed: null, guest: false };
    const group = await groupOf(roomId);
    if (group) {
      // Those who may be in the main room now, and of them the hosts and the group's own people.
      const main = await resolve(user, group.breakout.roomId, now);
      if ('error' in main) return main;
      if (breakoutClosed(group.breakout, now)) return { error: messages.breakoutsNotOpen };
      if (!isHost(user, main.room)) {
        const mine = await splits.groupOf(group.breakout.id, user.id);
        if (mine !== group.group) return { error: mine === null ? messages.notAllowed : messages.breakoutNotYours };
      }
      // Placed by a host: a guest of the main room is let in without its lobby.
      return { ...asGroup(main, roomId), guest: false };
    }
    const { session, allowed } = await sessionForRoom(app.db, user, roomId);
    if (!session) return { error: messages.roomNotFound };
    if (session.cancelledAt) return { error: messages.sessionWasCancelled };
    const closed = joinable(session, now) ? null : now >= session.endsAt ? messages.sessionEnded : messages.sessionNotOpenYet;
    const known = await sessionRoom(roomId);
    return known ? { ...known, closed, guest: !allowed } : { error: messages.roomNotFound };
  }

  return {
    /** The room behind an id as it is, whoever asks (for a connection taking back the place it held). */
    lookup,

    /**
     * The room behind an id when this person may be in it, or why not. `closed` says why a class room
     * takes no joins at this moment; someone already in it stays. `guest`: a signed-in user who may not
     * see the session, whom the lobby lets in only when a host admits them (moderation.ts).
     */
    resolve,
  };
}

export type RoomAdmission = ReturnType<typeof roomAdmission>;
