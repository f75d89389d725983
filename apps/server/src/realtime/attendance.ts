// Attendance of class-session rooms (contract: join and leave times are recorded), read by the dashboards.
import { and, desc, eq, isNull } from 'drizzle-orm';
import type { Database } from '../db/client';
import { attendance } from '../db/schema/index';

export async function recordJoin(db: Database, sessionId: number, userId: number, at = new Date()): Promise<void> {
  await db.insert(attendance).values({ sessionId, userId, joinedAt: at });
}

/** Closes the person's latest open visit of the session; a second tab has its own row. */
export async function recordLeave(db: Database, sessionId: number, userId: number, at = new Date()): Promise<void> {
  const [open] = await db
    .select({ id: attendance.id })
    .from(attendance)
    .where(and(eq(attendance.sessionId, sessionId), eq(attendance.userId, userId), isNull(attendance.leftAt)))
    .orderBy(desc(attendance.joinedAt))
    .limit(1);
  if (open) await db.update(attendance).set({ leftAt: at }).where(eq(attendance.id, open.id));
}
