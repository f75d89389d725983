// The class whiteboard's pages saved as images: the host's tab sends a PNG of each page it
// draws on while the class goes, so that after the class the session's students open its boards from
// the session and the course. Who may see the session may see its boards; only its teacher (or an
// admin) saves them. A room that is no class session's has none (404), as for anything one may not see.
// A course's boards are those of its sessions the caller may see (the sessions list's rule). A breakout
// group's board (its room is the main room's, under the group's id) is the session's too: saved by
// whoever is in the group, seen by whoever may see the session, listed with the group's number.
import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import { mainRoomOf, parseGroupRoomId } from '@mooz/contract/breakouts';
import type { FastifyReply } from 'fastify';
import { messages } from '@mooz/contract/messages';
import { whiteboardLimits, type SavedWhiteboardPage, type SessionWhiteboard } from '@mooz/contract/whiteboard';
import type { Database } from '../../db/client';
import { whiteboardSnapshots } from '../../db/schema/index';
import type { AuthUser } from '../../http/authenticate';
import { badRequest, forbidden, HttpError, notFound } from '../../http/errors';
import { courseSessions, sessionForRoom, sessionOfRoom } from '../sessions';
import { boardStore } from '../../realtime/whiteboard/board-store';
import { breakoutStore } from '../../realtime/breakouts/breakout-store';

const pngSignature = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
const isPng = (bytes: Uint8Array) => bytes.length > pngSignature.length && pngSignature.every((byte, i) => bytes[i] === byte);

export function createWhiteboardImages(db: Database) {
  const boards = boardStore(db);
  const splits = breakoutStore(db);

  /** The session of the room (a group's: its main room's) when this person may see it. */
  async function visibleSession(user: AuthUser, roomId: string) {
    const { session, allowed } = await sessionForRoom(db, user, mainRoomOf(roomId));
    if (!session || !allowed || session.cancelledAt) throw notFound(messages.sessionNotFound);
    return session;
  }

  return {
    async pages(user: AuthUser, roomId: string): Promise<{ data: SavedWhiteboardPage[] }> {
      await visibleSession(user, roomId);
      const rows = await db
        .select({ page: whiteboardSnapshots.page, savedAt: whiteboardSnapshots.savedAt })
        .from(whiteboardSnapshots)
        .where(eq(whiteboardSnapshots.roomId, roomId))
        .orderBy(asc(whiteboardSnapshots.page));
      return { data: rows.map((row) => ({ page: row.page, saved_at: row.savedAt.toISOString() })) };
    },

    /** The boards of a course: each session the user may see that has a saved page, newest session first. */
    async ofCourse(user: AuthUser, courseId: number): Promise<{ data: SessionWhiteboard[] }> {
      const found = await courseSessions(db, user, courseId);
      if (!found) throw notFound(messages.courseNotFound);
      // As a course's assignments: a course of the catalogue one is not in is forbidden, any other is not found.
      if (!found.sessions) throw found.listed ? forbidden(messages.notInCourse) : notFound(messages.courseNotFound);
      const roomIds = found.sessions.map((session) => session.roomId);
      if (roomIds.length === 0) return { data: [] };
      // The main rooms' boards and their groups' (`<main room>~b<split>g<group>`).
      const rows = await db
        .select({ roomId: whiteboardSnapshots.roomId, page: whiteboardSnapshots.page, savedAt: whiteboardSnapshots.savedAt })
        .from(whiteboardSnapshots)
        .where(inArray(sql`split_part(${whiteboardSnapshots.roomId}, '~', 1)`, roomIds))
        .orderBy(asc(whiteboardSnapshots.roomId), asc(whiteboardSnapshots.page));
      const pagesOf = new Map<string, SavedWhiteboardPage[]>();
      for (const row of rows) {
        const pages = pagesOf.get(row.roomId) ?? [];
        pages.push({ page: row.page, saved_at: row.savedAt.toISOString() });
        pagesOf.set(row.roomId, pages);
      }
      return {
        data: found.sessions.flatMap((session) =>
          [...pagesOf.entries()]
            .filter(([roomId]) => mainRoomOf(roomId) === session.roomId)
            .map(([roomId, pages]) => ({ roomId, group: parseGroupRoomId(roomId), pages }))
            // The main room's board first, then the groups' in order, round by round.
            .sort((a, b) => (a.group?.breakoutId ?? 0) - (b.group?.breakoutId ?? 0) || (a.group?.group ?? -1) - (b.group?.group ?? -1))
            .map(({ roomId, group, pages }) => ({
              session_id: session.id,
              title: session.title,
              starts_at: session.startsAt.toISOString(),
              room_id: roomId,
              group: group ? group.group + 1 : null,
              pages,
            })),
        ),
      };
    },

    async image(user: AuthUser, roomId: string, page: number, reply: FastifyReply) {
      const session = await visibleSession(user, roomId);
      const [row] = await db
        .select({ png: whiteboardSnapshots.png })
        .from(whiteboardSnapshots)
        .where(and(eq(whiteboardSnapshots.roomId, roomId), eq(whiteboardSnapshots.page, page)));
      if (!row) throw notFound();
      const name = `${session.title} - whiteboard ${page + 1}.png`;
      return reply
        .status(200)
        .type('image/png')
        .header('content-disposition', `attachment; filename="whiteboard-${page + 1}.png"; filename*=UTF-8''${encodeURIComponent(name)}`)
        .send(Buffer.from(row.png));
    },

    async save(user: AuthUser, roomId: string, page: number, png: string): Promise<{ data: SavedWhiteboardPage }> {
      const group = parseGroupRoomId(roomId);
      const found = await sessionOfRoom(db, mainRoomOf(roomId));
      if (!found || found.session.cancelledAt) throw notFound(messages.sessionNotFound);
      // A group's board: a group of a split of this room, saved by its teacher or someone placed in it.
      if (group) {
        const split = await splits.find(group.breakoutId);
        if (split?.roomId !== group.mainRoomId || group.group >= split.groups) throw notFound(messages.sessionNotFound);
      }
      const placed = group !== null && (await splits.groupOf(group.breakoutId, user.id)) === group.group;
      if (user.userType !== 'admin' && found.teacherId !== user.id && !placed) throw forbidden();
      const board = await boards.find(roomId);
      if (page >= board.pages) throw notFound();
      const bytes = Buffer.from(png, 'base64');
      if (bytes.length > whiteboardLimits.snapshotMaxBytes) throw new HttpError(413, messages.payloadTooLarge);
      if (!isPng(bytes)) throw badRequest(messages.validationFailed, { png: ['Not a PNG image'] });
      await boards.change(roomId, found.session.id, {});
      await boards.saveSnapshot(roomId, page, bytes);
      return { data: { page, saved_at: new Date().toISOString() } };
    },
  };
}

export type WhiteboardImages = ReturnType<typeof createWhiteboardImages>;
