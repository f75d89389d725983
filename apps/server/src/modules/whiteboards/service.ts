// The class whiteboard's pages saved as images: the host's tab sends a PNG of each page it
// draws on while the class goes, so that after the class the session's students open its boards from
// the session and the course. Who may see the session may see its boards; only its teacher (or an
// admin) saves them. A room that is no class session's has none (404), as for anything one may not see.
// A course's boards are those of its sessions the caller may see (the sessions list's rule).
import { and, asc, eq, inArray } from 'drizzle-orm';
import type { FastifyReply } from 'fastify';
import { messages } from '@mooz/contract/messages';
import { whiteboardLimits, type SavedWhiteboardPage, type SessionWhiteboard } from '@mooz/contract/whiteboard';
import type { Database } from '../../db/client';
import { whiteboardSnapshots } from '../../db/schema/index';
import type { AuthUser } from '../../http/authenticate';
import { badRequest, forbidden, HttpError, notFound } from '../../http/errors';
import { courseSessions, sessionForRoom, sessionOfRoom } from '../sessions';
import { boardStore } from '../../realtime/whiteboard/board-store';

const pngSignature = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
const isPng = (bytes: Uint8Array) => bytes.length > pngSignature.length && pngSignature.every((byte, i) => bytes[i] === byte);

export function createWhiteboardImages(db: Database) {
  const boards = boardStore(db);

  /** The session of the room when this person may see it. */
  async function visibleSession(user: AuthUser, roomId: string) {
    const { session, allowed } = await sessionForRoom(db, user, roomId);
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
      const rows = await db
        .select({ roomId: whiteboardSnapshots.roomId, page: whiteboardSnapshots.page, savedAt: whiteboardSnapshots.savedAt })
        .from(whiteboardSnapshots)
        .where(inArray(whiteboardSnapshots.roomId, roomIds))
        .orderBy(asc(whiteboardSnapshots.page));
      const pagesOf = new Map<string, SavedWhiteboardPage[]>();
      for (const row of rows) {
        const pages = pagesOf.get(row.roomId) ?? [];
        pages.push({ page: row.page, saved_at: row.savedAt.toISOString() });
        pagesOf.set(row.roomId, pages);
      }
      return {
        data: found.sessions.flatMap((session) => {
          const pages = pagesOf.get(session.roomId);
          return pages ? [{ session_id: session.id, title: session.title, starts_at: session.startsAt.toISOString(), room_id: session.roomId, pages }] : [];
        }),
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
      const found = await sessionOfRoom(db, roomId);
      if (!found || found.session.cancelledAt) throw notFound(messages.sessionNotFound);
      if (user.userType !== 'admin' && found.teacherId !== user.id) throw forbidden();
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
