// Where the whiteboards live: in the database, so every server process sees one board, a late joiner
// gets all of it and nothing is lost when a process goes. A page's Yjs updates are appended as they
// come and merged into one row now and then (Yjs merges are order-free and idempotent, so two processes
// merging at once cost a duplicate, never a loss).
import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import * as Y from 'yjs';
import { whiteboardLimits } from '@mooz/contract/whiteboard';
import type { Database } from '../../db/client';
import { whiteboards, whiteboardSnapshots, whiteboardUpdates } from '../../db/schema/index';

export type Board = typeof whiteboards.$inferSelect;

const blank = (roomId: string): Board => ({
  roomId,
  sessionId: null,
  shown: false,
  pages: 1,
  page: 0,
  access: 'nobody',
  writers: [],
  updatedAt: new Date(0),
});

export function boardStore(db: Database) {
  /** Merges updates since the last merge after this many appends of this process to one page. */
  const appends = new Map<string, number>();

  async function find(roomId: string): Promise<Board> {
    const [row] = await db.select().from(whiteboards).where(eq(whiteboards.roomId, roomId));
    return row ?? blank(roomId);
  }

  /** Creates the board on first use, then applies `change`. */
  async function change(roomId: string, sessionId: number | null, values: Partial<Omit<Board, 'roomId'>>): Promise<Board> {
    const [row] = await db
      .insert(whiteboards)
      .values({ roomId, sessionId, ...values, updatedAt: new Date() })
      .onConflictDoUpdate({ target: whiteboards.roomId, set: { ...values, updatedAt: new Date() } })
      .returning();
    return row!;
  }

  async function compact(roomId: string, page: number) {
    await db.transaction(async (tx) => {
      const rows = await tx
        .select({ id: whiteboardUpdates.id, update: whiteboardUpdates.update })
        .from(whiteboardUpdates)
        .where(and(eq(whiteboardUpdates.roomId, roomId), eq(whiteboardUpdates.page, page)))
        .orderBy(asc(whiteboardUpdates.id));
      if (rows.length < 2) return;
      const merged = Y.mergeUpdates(rows.map((r) => r.update));
      await tx.delete(whiteboardUpdates).where(inArray(whiteboardUpdates.id, rows.map((r) => r.id)));
      await tx.insert(whiteboardUpdates).values({ roomId, page, update: merged });
    });
  }

  return {
    find,
    change,

    /** Adds a page at the end and moves the class to it; null when the board has all it may. */
    async addPage(roomId: string, sessionId: number | null): Promise<Board | null> {
      await change(roomId, sessionId, {});
      const [row] = await db
        .update(whiteboards)
        .set({ pages: sql`${whiteboards.pages} + 1`, page: sql`${whiteboards.pages}`, updatedAt: new Date() })
        .where(and(eq(whiteboards.roomId, roomId), sql`${whiteboards.pages} < ${whiteboardLimits.maxPages}`))
        .returning();
      return row ?? null;
    },

    async append(roomId: string, sessionId: number | null, page: number, update: Uint8Array) {
      const [exists] = await db.select({ roomId: whiteboards.roomId }).from(whiteboards).where(eq(whiteboards.roomId, roomId));
      if (!exists) await change(roomId, sessionId, {});
      await db.insert(whiteboardUpdates).values({ roomId, page, update });
      const key = `${roomId}|${page}`;
      const count = (appends.get(key) ?? 0) + 1;
      if (count < whiteboardLimits.compactAfterUpdates) {
        appends.set(key, count);
        return;
      }
      appends.delete(key);
      await compact(roomId, page);
    },

    /** The page's whole document as one update (an empty document's when nothing was drawn). */
    async document(roomId: string, page: number): Promise<Uint8Array> {
      const rows = await db
        .select({ update: whiteboardUpdates.update })
        .from(whiteboardUpdates)
        .where(and(eq(whiteboardUpdates.roomId, roomId), eq(whiteboardUpdates.page, page)))
        .orderBy(asc(whiteboardUpdates.id));
      if (!rows.length) return Y.encodeStateAsUpdate(new Y.Doc());
      return rows.length === 1 ? rows[0]!.update : Y.mergeUpdates(rows.map((r) => r.update));
    },

    async saveSnapshot(roomId: string, page: number, png: Uint8Array) {
      await db
        .insert(whiteboardSnapshots)
        .values({ roomId, page, png })
        .onConflictDoUpdate({ target: [whiteboardSnapshots.roomId, whiteboardSnapshots.page], set: { png, savedAt: new Date() } });
    },
  };
}
