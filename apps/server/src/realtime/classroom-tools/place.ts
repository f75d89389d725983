// Where a connection stands in a room, as the classroom tools ask before each request: in the room now
// (its place not taken over by the same account elsewhere), and whether it hosts it.
import type { RoomAdmission } from '../admission';
import { isHost } from '../moderation';
import type { Member, RoomStore } from '../room-store';
import type { MeetingSocket } from '../sockets';

interface Place {
  self: Member;
  host: boolean;
  /** The class session whose room it is; null for an ad hoc room. */
  sessionId: number | null;
  /** The room's host account (a session's teacher, an ad hoc room's creator). */
  hostAccount: number | null;
}

export async function placeIn(socket: MeetingSocket, store: RoomStore, admission: RoomAdmission, roomId: string): Promise<Place | null> {
  const { user, peerId } = socket.data;
  const joined = socket.data.rooms.get(roomId);
  if (!joined) return null;
  const [self] = await store.members(roomId, [peerId]);
  if (!self || self.userId !== user.id) return null;
  const known = await admission.lookup(roomId);
  if (!known) return null;
  return { self, host: isHost(user, known.room), sessionId: joined.sessionId, hostAccount: known.room.created_by };
}
