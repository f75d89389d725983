// Reminders: `limits.reminderLeadMinutes` before a session starts, each of its students (the batch's
// paying students, or the whole course's for a session of no batch) and its teacher are told, in the
// app and by mail (with the join link, in their language, unless they turned reminders off): a
// `class_starting` notification (modules/notifications; its words: session-mails.ts).
//
// The queue is PostgreSQL itself, in two steps, so several server processes remind each session once:
// 1. A pass (every process, every `REMINDER_POLL_MS`) claims the sessions starting within the lead
//    time with one conditional UPDATE … SET reminded_starts_at = starts_at WHERE reminded_starts_at
//    IS DISTINCT FROM starts_at … RETURNING. Row locks make two passes at once claim each session once
//    (the second re-reads the row after the first commits, and its condition no longer holds), and
//    nothing is written per session up front: a batch that makes a hundred sessions needs no jobs.
//    In the same transaction it tells each recipient, which writes their notification and its mail's
//    job into the transactional outbox, so claim and notices commit together or not at all.
// 2. The outbox mails each one; just before sending, the notifications module checks the session is
//    still on, not over, and still at the time the mail gives: a session cancelled (or moved) between
//    the claim and the send gets no stale reminder. A moved session no longer matches its
//    reminded_starts_at, so the next pass within the lead time of its new start reminds it again, at
//    its new time.
import { and, eq, gt, isNull, lte, sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import { limits } from '@mooz/contract/limits';
import type { Database } from '../../db/client';
import type { Mail, Mailer } from '../../infrastructure/mail';
import { classSessions, courses, users } from '../../db/schema/index';
import type { NotificationsDoor } from '../notifications';
import { payingStudents } from '../courses';
import { joinLink } from './join-link';
import { sessionParams } from './session-mails';

/** How often each process looks for sessions to remind. */
const REMINDER_POLL_MS = 30_000;
/** A session found only after it started (the server was down) is still reminded this long after its start. */
const REMINDER_LATE_MS = 5 * 60_000;

interface RemindersDeps {
  db: Database;
  log: FastifyBaseLogger;
  now?: () => Date;
  /** 0: no timer (tests call pass() themselves). */
  pollMs?: number;
  /** Tells each recipient, in the app and by mail (modules/notifications). */
  notifications: Pick<NotificationsDoor, 'tell' | 'kick'>;
}

type Executor = Pick<Database, 'select'>;

export function createReminders(deps: RemindersDeps) {
  const { db } = deps;
  const now = deps.now ?? (() => new Date());
  const leadMs = limits.reminderLeadMinutes * 60_000;

  /** The session's students (active subscriptions; of its batch when it has one) and its teacher. */
  async function recipientsOf(executor: Executor, session: { courseId: number; batchId: number | null }, teacherId: number): Promise<number[]> {
    const person = { id: users.id };
    const [students, teacher] = await Promise.all([
      payingStudents(executor, session),
      executor.select(person).from(users).where(and(eq(users.id, teacherId), isNull(users.deactivatedAt))),
    ]);
    return [...new Set([...students.filter((s) => !s.deactivatedAt), ...teacher].map((r) => r.id))];
  }

  /** Claims the sessions due for a reminder and tells their people; answers how many sessions it claimed. */
  async function pass(): Promise<number> {
    const at = now();
    const claimed = await db.transaction(async (tx) => {
      const sessions = await tx
        .update(classSessions)
        .set({ remindedStartsAt: sql`${classSessions.startsAt}` })
        .where(
          and(
            isNull(classSessions.cancelledAt),
            lte(classSessions.startsAt, new Date(at.getTime() + leadMs)),
            gt(classSessions.startsAt, new Date(at.getTime() - REMINDER_LATE_MS)),
            gt(classSessions.endsAt, at),
            sql`${classSessions.remindedStartsAt} is distinct from ${classSessions.startsAt}`,
          ),
        )
        .returning();
      for (const session of sessions) {
        const [course] = await tx
          .select({ name: courses.name, timeZone: courses.timeZone, teacherId: courses.teacherId })
          .from(courses)
          .where(eq(courses.id, session.courseId));
        if (!course) continue;
        const recipients = await recipientsOf(tx, session, course.teacherId);
        const params = sessionParams({ ...session, courseName: course.name, timeZone: course.timeZone }, { session_id: session.id });
        // The page is the session's room: the mail's button is its join link.
        const link = joinLink('', session.roomId);
        await deps.notifications.tell(
          tx,
          recipients.map((userId) => ({ userId, kind: 'class_starting' as const, params, link })),
        );
      }
      return sessions.length;
    });
    if (claimed) deps.notifications.kick();
    return claimed;
  }

  let running: Promise<unknown> | null = null;
  function tick() {
    if (running) return;
    running = pass()
      .catch((error: unknown) => deps.log.warn({ err: error }, 'reminder pass failed; the next one retries'))
      .finally(() => {
        running = null;
      });
  }
  const pollMs = deps.pollMs ?? REMINDER_POLL_MS;
  let timer: NodeJS.Timeout | null = null;

  return {
    pass,
    start() {
      if (!pollMs || timer) return;
      timer = setInterval(tick, pollMs);
      timer.unref();
      tick();
    },
    async stop() {
      if (timer) clearInterval(timer);
      timer = null;
      await running;
    },
  };
}

export type Reminders = ReturnType<typeof createReminders>;

/**
 * A `reminder` job written before reminders became notifications, still queued when the server was
 * upgraded (within a lead time): its mail goes as it was written, unless its session was cancelled or
 * moved since.
 */
export interface QueuedReminder {
  sessionId: number;
  startsAt: string;
  mail: Mail;
}

export async function sendQueuedReminder(db: Database, mailer: Pick<Mailer, 'send'>, log: FastifyBaseLogger, job: QueuedReminder) {
  const [session] = await db
    .select({ startsAt: classSessions.startsAt, cancelledAt: classSessions.cancelledAt })
    .from(classSessions)
    .where(eq(classSessions.id, job.sessionId));
  if (!session || session.cancelledAt || session.startsAt.toISOString() !== job.startsAt) {
    log.info({ session: job.sessionId }, 'queued reminder dropped: the session was cancelled or moved');
    return;
  }
  await mailer.send(job.mail);
}
