// Reminders: `limits.reminderLeadMinutes` before a session starts, each of its students (the batch's
// paying students, or the whole course's for a session of no batch) and its teacher get a mail with
// the join link, in their language.
//
// The queue is PostgreSQL itself, in two steps, so several server processes send each reminder once:
// 1. A pass (every process, every `REMINDER_POLL_MS`) claims the sessions starting within the lead
//    time with one conditional UPDATE … SET reminded_starts_at = starts_at WHERE reminded_starts_at
//    IS DISTINCT FROM starts_at … RETURNING. Row locks make two passes at once claim each session once
//    (the second re-reads the row after the first commits, and its condition no longer holds), and
//    nothing is written per session up front: a batch that makes a hundred sessions needs no jobs.
//    In the same transaction it writes one `reminder` job per recipient into the transactional outbox
//    (infrastructure/outbox.ts, FOR UPDATE SKIP LOCKED), so claim and mails commit together or not at all.
// 2. The outbox sends each job; just before sending, its handler checks the session is still on and
//    still at the time the mail gives: a session cancelled (or moved) between the claim and the send
//    gets no stale reminder. A moved session no longer matches its reminded_starts_at, so the next
//    pass within the lead time of its new start reminds it again, at its new time.
import { and, asc, eq, gt, isNull, lte, sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import { limits } from '@mooz/contract/limits';
import type { Database } from '../../db/client';
import { classSessions, courses, subscriptions, users } from '../../db/schema/index';
import type { Mail, Mailer } from '../../infrastructure/mail';
import { escapeHtml, mailTranslator } from '../../infrastructure/mail-text';
import type { Outbox } from '../../infrastructure/outbox';
import type { NotificationsDoor } from '../notifications/door';
import { joinLink } from './join-link';
import { formatSessionTime, type Recipient } from './session-mails';

/** How often each process looks for sessions to remind. */
export const REMINDER_POLL_MS = 30_000;
/** A session found only after it started (the server was down) is still reminded this long after its start. */
export const REMINDER_LATE_MS = 5 * 60_000;

/** An outbox job of kind `reminder`: the mail, and what must still hold for it to go. */
export interface ReminderJob {
  sessionId: number;
  startsAt: string;
  mail: Mail;
  /** Whose: their mail preference is asked just before sending (absent on jobs written before). */
  userId?: number;
}

export interface RemindersDeps {
  db: Database;
  outbox: Outbox;
  mailer: Mailer;
  log: FastifyBaseLogger;
  /** The app's public address: join links. */
  origin: () => string;
  now?: () => Date;
  /** 0: no timer (tests call pass() themselves). */
  pollMs?: number;
  /** The bell of each recipient, and their mail preference for reminders (modules/notifications). */
  notifications?: Pick<NotificationsDoor, 'tell' | 'wantsMail' | 'mailHeaders'>;
}

type Executor = Pick<Database, 'select'>;

export function reminderMail(
  to: Recipient,
  session: { title: string; courseName: string; timeZone: string; startsAt: Date },
  link: string,
  at: Date,
): Mail {
  const t = mailTranslator(to.language);
  // The minutes left as they are when the mail is written: the lead as a rule, fewer for a session
  // scheduled inside it; one found after its start (the server was down) says it is under way.
  const minutes = Math.ceil((session.startsAt.getTime() - at.getTime()) / 60_000);
  const started = minutes <= 0;
  const names = { title: session.title, course: session.courseName, minutes: Math.min(minutes, limits.reminderLeadMinutes) };
  const greeting = t('greeting', { name: to.firstName });
  const intro = t(started ? 'session.reminder.introStarted' : 'session.reminder.intro', names);
  const when = t('session.reminder.when', { time: formatSessionTime(session.startsAt, session.timeZone, to.language) });
  const join = t('session.reminder.join');
  return {
    to: to.email,
    subject: t(started ? 'session.reminder.subjectStarted' : 'session.reminder.subject', names),
    text: `${greeting}\n\n${intro}\n${when}\n\n${join}\n${link}\n`,
    html:
      `<p>${escapeHtml(greeting)}</p><p>${escapeHtml(intro)}<br>${escapeHtml(when)}</p>` +
      `<p>${escapeHtml(join)}<br><a href="${escapeHtml(link)}">${escapeHtml(link)}</a></p>`,
  };
}

export function createReminders(deps: RemindersDeps) {
  const { db } = deps;
  const now = deps.now ?? (() => new Date());
  const leadMs = limits.reminderLeadMinutes * 60_000;

  /** The session's students (active subscriptions; of its batch when it has one) and its teacher. */
  async function recipientsOf(executor: Executor, session: { courseId: number; batchId: number | null }, teacherId: number): Promise<(Recipient & { id: number })[]> {
    const person = { id: users.id, email: users.email, firstName: users.firstName, language: users.language };
    const [students, teacher] = await Promise.all([
      executor
        .select(person)
        .from(subscriptions)
        .innerJoin(users, eq(users.id, subscriptions.userId))
        .where(
          and(
            eq(subscriptions.courseId, session.courseId),
            eq(subscriptions.status, 'active'),
            session.batchId === null ? undefined : eq(subscriptions.batchId, session.batchId),
            isNull(users.deactivatedAt),
          ),
        )
        .orderBy(asc(users.id)),
      executor.select(person).from(users).where(and(eq(users.id, teacherId), isNull(users.deactivatedAt))),
    ]);
    const seen = new Set<number>();
    return [...students, ...teacher].filter((r) => !seen.has(r.id) && !!seen.add(r.id));
  }

  /** Claims the sessions due for a reminder and queues their mails; answers how many sessions it claimed. */
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
        const facts = { title: session.title, courseName: course.name, timeZone: course.timeZone, startsAt: session.startsAt };
        const link = joinLink(deps.origin(), session.roomId);
        const recipients = await recipientsOf(tx, session, course.teacherId);
        for (const to of recipients) {
          const mail = reminderMail(to, facts, link, at);
          const headers = deps.notifications?.mailHeaders(to.id, 'class_starting');
          const job: ReminderJob = { sessionId: session.id, startsAt: session.startsAt.toISOString(), mail: headers ? { ...mail, headers } : mail, userId: to.id };
          await deps.outbox.add(tx, 'reminder', job);
        }
        // In the app too; the mail is the reminder's own (above).
        await deps.notifications?.tell(
          tx,
          recipients.map((to) => ({
            userId: to.id,
            kind: 'class_starting' as const,
            params: { course: course.name, title: session.title, starts_at: session.startsAt.toISOString(), time_zone: course.timeZone },
            link: `/meeting/${encodeURIComponent(session.roomId)}`,
            mail: false as const,
          })),
        );
      }
      return sessions.length;
    });
    if (claimed) deps.outbox.kick();
    return claimed;
  }

  /** The outbox's handler: sends the mail unless the session was cancelled, moved or removed since. */
  async function send(job: ReminderJob) {
    const [session] = await db
      .select({ startsAt: classSessions.startsAt, cancelledAt: classSessions.cancelledAt })
      .from(classSessions)
      .where(eq(classSessions.id, job.sessionId));
    if (!session || session.cancelledAt || session.startsAt.toISOString() !== job.startsAt) {
      deps.log.info({ session: job.sessionId, to: job.mail.to }, 'reminder dropped: the session was cancelled or moved');
      return;
    }
    if (job.userId !== undefined && deps.notifications && !(await deps.notifications.wantsMail(job.userId, 'class_starting'))) return;
    await deps.mailer.send(job.mail);
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
    send,
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
