// The room a live recording is made in: who hosts it, whether the recorder is in it now, and what its
// members are told of the recording.
import { and, eq } from 'drizzle-orm';
import type { RoomRecording } from '@mooz/contract/recordings';
import { recordings, users } from '../../db/schema/index';
import { roomChannel } from '../../realtime/sockets';
import { sessionOfRoom } from '../sessions';
import type { LiveRecordingParts } from './live-parts';

export function liveRecordingRooms(parts: Pick<LiveRecordingParts, 'db' | 'realtime'>) {
  const { db } = parts;

  /** The room behind an id, and who hosts it: a class session's course teacher, or an ad hoc room's creator. */
  async function roomOf(roomId: string) {
    const adHoc = await parts.realtime().store.findRoom(roomId);
    if (adHoc) return { name: adHoc.name, hostId: adHoc.created_by, session: null };
    const found = await sessionOfRoom(db, roomId);
    if (!found) return null;
    return { name: found.session.title, hostId: found.teacherId, session: found.session };
  }

  /** Whether the user has a connection in the room's channel now, on this server process or another. */
  async function inRoom(roomId: string, userId: number): Promise<boolean> {
    const channel = parts.realtime().io.in(roomChannel(roomId));
    const sockets = await channel.fetchSockets().catch(() => parts.realtime().io.local.in(roomChannel(roomId)).fetchSockets());
    return sockets.some((socket) => socket.data.user?.id === userId);
  }

  function tellRoom(roomId: string, recording: RoomRecording | null) {
    parts.realtime().io.to(roomChannel(roomId)).emit('action:recording_state', { roomId, recording });
  }

  async function notice(roomId: string): Promise<RoomRecording | null> {
    const [row] = await db
      .select({ id: recordings.id, startedBy: recordings.recordedBy, firstName: users.firstName, lastName: users.lastName, startedAt: recordings.createdAt })
      .from(recordings)
      .innerJoin(users, eq(users.id, recordings.recordedBy))
      .where(and(eq(recordings.roomId, roomId), eq(recordings.status, 'recording')));
    if (!row) return null;
    return { id: row.id, started_by: row.startedBy, started_by_name: `${row.firstName} ${row.lastName}`.trim(), started_at: row.startedAt.toISOString() };
  }

  return { roomOf, inRoom, tellRoom, notice };
}

export type LiveRecordingRooms = ReturnType<typeof liveRecordingRooms>;

/** A row the unique partial index refused: the room has a live recording already. */
export function isUniqueViolation(error: unknown): boolean {
  for (let cause = error as { code?: string; cause?: unknown } | undefined, i = 0; cause && i < 4; cause = cause.cause as typeof cause, i++) {
    if (cause.code === '23505') return true;
  }
  return false;
}
