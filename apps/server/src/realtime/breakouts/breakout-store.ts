// Where breakout rooms live: in the database, so every server process admits to a group the same
// people, a late joiner or a reconnect finds the split, and a restart loses nothing.
import { and, asc, desc, eq, isNull } from 'drizzle-orm';
import type { BreakoutMode } from '@mooz/contract/breakouts';
import type { Database } from '../../db/client';
import { breakoutMembers, breakouts } from '../../db/schema/index';

export type Breakout = typeof breakouts.$inferSelect;
export interface Placement {
  userId: number;
  userName: string;
  group: number;
}

/** Closed by a host, or past its time. */
export const breakoutClosed = (breakout: Breakout, now = new Date()) => breakout.closedAt !== null || (breakout.endsAt !== null && breakout.endsAt <= now);

export function breakoutStore(db: Database) {
  return {
    /** Opens a split of the main room, closing any still open there. */
    async open(
      split: { roomId: string; sessionId: number | null; openedBy: number; mode: BreakoutMode; groups: number; minutes: number | null },
      placements: Placement[],
    ): Promise<Breakout> {
      return db.transaction(async (tx) => {
        const now = new Date();
        await tx.update(breakouts).set({ closedAt: now }).where(and(eq(breakouts.roomId, split.roomId), isNull(breakouts.closedAt)));
        const [row] = await tx
          .insert(breakouts)
          .values({
            roomId: split.roomId,
            sessionId: split.sessionId,
            openedBy: split.openedBy,
            mode: split.mode,
            groups: split.groups,
            openedAt: now,
            endsAt: split.minutes ? new Date(now.getTime() + split.minutes * 60_000) : null,
          })
          .returning();
        if (placements.length) {
          await tx.insert(breakoutMembers).values(placements.map((p) => ({ breakoutId: row!.id, userId: p.userId, userName: p.userName, groupIndex: p.group })));
        }
        return row!;
      });
    },

    async find(breakoutId: number): Promise<Breakout | null> {
      const [row] = await db.select().from(breakouts).where(eq(breakouts.id, breakoutId));
      return row ?? null;
    },

    /** The main room's newest split. */
    async latest(roomId: string): Promise<Breakout | null> {
      const [row] = await db.select().from(breakouts).where(eq(breakouts.roomId, roomId)).orderBy(desc(breakouts.id)).limit(1);
      return row ?? null;
    },

    async placements(breakoutId: number): Promise<Placement[]> {
      return db
        .select({ userId: breakoutMembers.userId, userName: breakoutMembers.userName, group: breakoutMembers.groupIndex })
        .from(breakoutMembers)
        .where(eq(breakoutMembers.breakoutId, breakoutId))
        .orderBy(asc(breakoutMembers.groupIndex), asc(breakoutMembers.userName));
    },

    /** The group this account is placed in; null when none. */
    async groupOf(breakoutId: number, userId: number): Promise<number | null> {
      const [row] = await db
        .select({ group: breakoutMembers.groupIndex })
        .from(breakoutMembers)
        .where(and(eq(breakoutMembers.breakoutId, breakoutId), eq(breakoutMembers.userId, userId)));
      return row?.group ?? null;
    },

    /** Places the account in a group (moving it when it was in another). */
    async place(breakoutId: number, placement: Placement): Promise<void> {
      await db
        .insert(breakoutMembers)
        .values({ breakoutId, userId: placement.userId, userName: placement.userName, groupIndex: placement.group })
        .onConflictDoUpdate({ target: [breakoutMembers.breakoutId, breakoutMembers.userId], set: { groupIndex: placement.group } });
    },

    /** Closes it now; false when it was closed already (so only one process tells the rooms). */
    async close(breakoutId: number): Promise<boolean> {
      const rows = await db
        .update(breakouts)
        .set({ closedAt: new Date() })
        .where(and(eq(breakouts.id, breakoutId), isNull(breakouts.closedAt)))
        .returning({ id: breakouts.id });
      return rows.length === 1;
    },
  };
}
