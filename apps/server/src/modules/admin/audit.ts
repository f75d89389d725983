// The audit log: every admin action, who did it to what and when. A row is written by the action's own
// transaction, so an action is never recorded without having happened, nor happens unrecorded.
import { desc, eq } from 'drizzle-orm';
import type { AuditEntry } from '@mooz/contract/admin';
import type { Database } from '../../db/client';
import { auditLog, users } from '../../db/schema/index';
import { pageOf, rowCount, type Paging } from './paging';
import { fullNameSql } from '../../db/person-name';

/** A database handle or the transaction of the action being recorded. */
type AuditWriter = Pick<Database, 'insert'>;

/**
 * Records an admin action in the caller's transaction: `actor` did `action` (`user.deactivate`,
 * `course.archive`…) to `target`; `details` holds what an admin reading the log needs (an email, an amount).
 */
export async function recordAudit(
  tx: AuditWriter,
  actor: { id: number } | number,
  action: string,
  target: { type: string; id: string | number },
  details: Record<string, unknown> = {},
): Promise<void> {
  await tx.insert(auditLog).values({
    actorId: typeof actor === 'number' ? actor : actor.id,
    action,
    targetType: target.type,
    targetId: String(target.id),
    details,
  });
}

/**
 * Records what an admin does with a teacher's things (batches, sessions, courses) through the
 * teachers' own endpoints; what teachers do to their own is theirs, not the audit log's.
 */
export async function auditIfAdmin(
  tx: AuditWriter,
  caller: { id: number; userType: string },
  action: string,
  target: { type: string; id: string | number },
  details: Record<string, unknown> = {},
): Promise<void> {
  if (caller.userType === 'admin') await recordAudit(tx, caller, action, target, details);
}

/** The log, newest first, optionally one action only. */
export async function listAudit(db: Database, query: Paging & { action?: string }): Promise<{ total: number; items: AuditEntry[] }> {
  const where = query.action ? eq(auditLog.action, query.action) : undefined;
  const [rows, [count]] = await Promise.all([
    db
      .select({ entry: auditLog, actor: { id: users.id, name: fullNameSql, email: users.email } })
      .from(auditLog)
      .innerJoin(users, eq(users.id, auditLog.actorId))
      .where(where)
      .orderBy(desc(auditLog.createdAt), desc(auditLog.id))
      .limit(query.limit)
      .offset(query.offset),
    db.select({ total: rowCount }).from(auditLog).where(where),
  ]);
  return pageOf(
    count!.total,
    rows.map(({ entry, actor }) => ({
      id: entry.id,
      actor,
      action: entry.action,
      target_type: entry.targetType,
      target_id: entry.targetId,
      details: entry.details,
      created_at: entry.createdAt.toISOString(),
    })),
  );
}
