// Work to do after a request has been answered, written in the same transaction as what caused it: a
// mail to send, or a one-time code to issue. A crash between the answer and the work leaves the row,
// and the next pass (of this or any server process) does it.
import { sql } from 'drizzle-orm';
import { index, integer, jsonb, pgTable, text, timestamp } from 'drizzle-orm/pg-core';

export const outboxJobs = pgTable(
  'outbox_jobs',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    kind: text('kind', { enum: ['mail', 'code', 'reminder', 'notice', 'notice-mail'] }).notNull(),
    payload: jsonb('payload').notNull(),
    /** Not before: a failed try waits, longer each time. */
    availableAt: timestamp('available_at', { withTimezone: true }).notNull().defaultNow(),
    /** A process working on the row holds it until then; a process that died lets it go. */
    claimedUntil: timestamp('claimed_until', { withTimezone: true }),
    attempts: integer('attempts').notNull().default(0),
    lastError: text('last_error'),
    doneAt: timestamp('done_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('outbox_jobs_pending_idx').on(t.availableAt).where(sql`${t.doneAt} is null`)],
);
