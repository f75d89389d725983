// Notifications: the one door other modules call (`tell`, in the transaction of the change that
// caused it), the caller's list and marks, mail preferences and the one-click unsubscribe, and the
// two outbox handlers that deliver:
// - `notice` pushes each new notification to its person's sockets (every process, through the
//   socket.io adapter), after the change committed;
// - `notice-mail` mails the notifications of one person and kind still pending. A notification
//   whose kind may be turned off waits for its person's mail window: after a mail of that kind, the
//   next waits until `digestWindowSeconds` have passed and carries everything that came meanwhile as
//   one digest. Security and payment mails go at once, alone, and so do a session's move, cancellation
//   and reminder (they cannot wait for a window); a reminder whose session was cancelled, moved or
//   ended before it went is not mailed (its bell stays). The handler claims the rows it mails
//   in its transaction (FOR UPDATE SKIP LOCKED, state pending → sent) and sends before it commits, so
//   two processes never mail one notification twice and a failed send leaves them pending for the
//   outbox's retry.
import { and, asc, desc, eq, inArray, isNull, lt, max, or, sql } from 'drizzle-orm';
import {
  mayTurnOffMail,
  notificationKinds,
  notificationRules,
  optionalMailKinds,
  type MailPreference,
  type Notification,
  type NotificationEvent,
  type NotificationKind,
} from '@mooz/contract/notifications';
import { apiRoutes } from '@mooz/contract/api-routes';
import type { Database } from '../../db/client';
import { classSessions, notificationMailOff, notifications, outboxJobs, users } from '../../db/schema/index';
import { badRequest, notFound } from '../../http/errors';
import type { Mail, Mailer } from '../../infrastructure/mail';
import type { Outbox } from '../../infrastructure/outbox';
import { digestMail, mailReader, noticeMail, unsubscribeHeaders, type NoticeParams } from './notice-mails';
import { sessionKinds } from '../sessions';
import { readUnsubscribeToken, unsubscribeToken } from './unsubscribe-token';

type Executor = Pick<Database, 'select' | 'insert' | 'update'>;

/** What a module tells: who, what kind, the facts of its words, and the app's page it leads to. */
export interface Notice {
  userId: number;
  kind: NotificationKind;
  params: NoticeParams;
  link: string | null;
  /**
   * The mail, when the module writes its own words (a receipt, a session's move): sent at once unless
   * the person turned the kind off. `false`: in the app only (another mail already tells it).
   */
  mail?: Mail | false;
}

export interface NoticeJob {
  userId: number;
  ids: number[];
}
export interface NoticeMailJob {
  userId: number;
  kind: NotificationKind;
  /** A mail already written (see Notice.mail) for exactly these notifications. */
  mail?: Mail;
  ids?: number[];
}

interface NotificationsDeps {
  db: Database;
  outbox: Outbox;
  mailer: Mailer;
  /** Signs unsubscribe tokens. */
  secret: string;
  /** The app's public address, for links in mails. */
  origin: () => string;
  /** Delivers a socket event to every socket of one person (realtime, once it is up). */
  push: (userId: number, event: NotificationEvent) => void;
  now?: () => Date;
}

const windowMs = notificationRules.digestWindowSeconds * 1000;

function present(row: typeof notifications.$inferSelect): Notification {
  return { id: row.id, kind: row.kind, params: row.params, link: row.link, read: row.readAt !== null, created_at: row.createdAt.toISOString() };
}

export function createNotifications(deps: NotificationsDeps) {
  const { db } = deps;
  const now = deps.now ?? (() => new Date());

  const unsubscribeUrl = (userId: number, kind: NotificationKind) =>
    mayTurnOffMail(kind) ? `${deps.origin()}${apiRoutes.notifications.unsubscribe.path}?token=${unsubscribeToken(deps.secret, userId, kind)}` : null;

  async function unreadOf(executor: Pick<Database, 'select'>, userId: number) {
    const [row] = await executor
      .select({ n: sql<number>`count(*)::int` })
      .from(notifications)
      .where(and(eq(notifications.userId, userId), isNull(notifications.readAt)));
    return row?.n ?? 0;
  }

  async function mailOff(executor: Pick<Database, 'select'>, userIds: number[]) {
    if (!userIds.length) return new Set<string>();
    const rows = await executor.select().from(notificationMailOff).where(inArray(notificationMailOff.userId, userIds));
    return new Set(rows.map((r) => `${r.userId}:${r.kind}`));
  }

  /** When the next digest mail of this kind may go to this person. */
  async function nextMailAt(executor: Pick<Database, 'select'>, userId: number, kind: NotificationKind, at: Date) {
    const [row] = await executor
      .select({ last: max(notifications.mailedAt) })
      .from(notifications)
      .where(and(eq(notifications.userId, userId), eq(notifications.kind, kind)));
    const last = row?.last ? new Date(row.last) : null;
    return last && last.getTime() + windowMs > at.getTime() ? new Date(last.getTime() + windowMs) : at;
  }

  /** A digest job of this person and kind already waiting: it will carry the new one too. */
  async function digestWaiting(executor: Pick<Database, 'select'>, userId: number, kind: NotificationKind) {
    const [row] = await executor
      .select({ id: outboxJobs.id })
      .from(outboxJobs)
      .where(
        and(
          eq(outboxJobs.kind, 'notice-mail'),
          isNull(outboxJobs.doneAt),
          // One being sent now may have read its rows before this one: not counted on.
          or(isNull(outboxJobs.claimedUntil), lt(outboxJobs.claimedUntil, now())),
          sql`${outboxJobs.payload}->>'userId' = ${String(userId)}`,
          sql`${outboxJobs.payload}->>'kind' = ${kind}`,
          sql`${outboxJobs.payload}->'mail' is null`,
          sql`${outboxJobs.payload}->'ids' is null`,
        ),
      )
      .limit(1);
    return !!row;
  }

  /**
   * The door: records the notices in `executor` (the transaction of the change that caused them) and
   * queues their delivery. Called with the database itself, it commits at once and starts delivery;
   * in a transaction the caller kicks the outbox after its commit, as for any outbox work.
   */
  async function tell(executor: Executor, notices: Notice[]): Promise<void> {
    if (!notices.length) return;
    const at = now();
    const off = await mailOff(executor, [...new Set(notices.map((n) => n.userId))]);
    const rows = await executor
      .insert(notifications)
      .values(
        notices.map((n) => ({
          userId: n.userId,
          kind: n.kind,
          params: n.params,
          link: n.link,
          mail:
            n.mail === false
              ? ('none' as const)
              : mayTurnOffMail(n.kind) && off.has(`${n.userId}:${n.kind}`)
                ? ('off' as const)
                : ('pending' as const),
          createdAt: at,
        })),
      )
      .returning({ id: notifications.id, userId: notifications.userId, kind: notifications.kind, mail: notifications.mail });
    const byUser = new Map<number, number[]>();
    for (const row of rows) byUser.set(row.userId, [...(byUser.get(row.userId) ?? []), row.id]);
    for (const [userId, ids] of byUser) await deps.outbox.add(executor, 'notice', { userId, ids } satisfies NoticeJob);
    const digests = new Set<string>();
    for (const [i, row] of rows.entries()) {
      if (row.mail !== 'pending') continue;
      const notice = notices[i]!;
      if (notice.mail || !mayTurnOffMail(row.kind) || sessionKinds.includes(row.kind)) {
        // Written by its module, a security mail, or a session's: at once, alone.
        const job: NoticeMailJob = { userId: row.userId, kind: row.kind, ids: [row.id], ...(notice.mail && { mail: notice.mail }) };
        await deps.outbox.add(executor, 'notice-mail', job);
        continue;
      }
      const key = `${row.userId}:${row.kind}`;
      if (digests.has(key)) continue;
      digests.add(key);
      if (await digestWaiting(executor, row.userId, row.kind)) continue;
      const notBefore = await nextMailAt(executor, row.userId, row.kind, at);
      await deps.outbox.add(executor, 'notice-mail', { userId: row.userId, kind: row.kind } satisfies NoticeMailJob, { notBefore });
    }
    if (executor === db) deps.outbox.kick();
  }

  /** Whether a reminder still tells the truth: its session is on, at the time it gives, and not over. */
  async function stillDue(executor: Pick<Database, 'select'>, row: typeof notifications.$inferSelect) {
    if (row.kind !== 'class_starting') return true;
    const [session] = await executor
      .select({ startsAt: classSessions.startsAt, endsAt: classSessions.endsAt, cancelledAt: classSessions.cancelledAt })
      .from(classSessions)
      .where(eq(classSessions.id, Number(row.params.session_id)));
    return !!session && !session.cancelledAt && session.startsAt.toISOString() === row.params.starts_at && session.endsAt > now();
  }

  /** The outbox's `notice` handler: the bell of each socket of the person. */
  async function pushNotice(job: NoticeJob) {
    const rows = await db
      .select()
      .from(notifications)
      .where(and(eq(notifications.userId, job.userId), inArray(notifications.id, job.ids)))
      .orderBy(asc(notifications.id));
    if (!rows.length) return;
    const unread = await unreadOf(db, job.userId);
    for (const row of rows) deps.push(job.userId, { notification: present(row), unread });
  }

  /** The outbox's `notice-mail` handler (see the header). */
  async function mailNotices(job: NoticeMailJob) {
    await db.transaction(async (tx) => {
      const [reader] = await tx
        .select({ email: users.email, firstName: users.firstName, language: users.language, deactivatedAt: users.deactivatedAt })
        .from(users)
        .where(eq(users.id, job.userId));
      let pending = await tx
        .select()
        .from(notifications)
        .where(
          and(
            eq(notifications.userId, job.userId),
            eq(notifications.kind, job.kind),
            eq(notifications.mail, 'pending'),
            job.ids ? inArray(notifications.id, job.ids) : undefined,
          ),
        )
        .orderBy(asc(notifications.id))
        .for('update', { skipLocked: true });
      const stale: number[] = [];
      for (const row of pending) if (!(await stillDue(tx, row))) stale.push(row.id);
      if (stale.length) await tx.update(notifications).set({ mail: 'none' }).where(inArray(notifications.id, stale));
      pending = pending.filter((row) => !stale.includes(row.id));
      if (!pending.length) return;
      const ids = pending.map((n) => n.id);
      const turnedOff = mayTurnOffMail(job.kind) && (await mailOff(tx, [job.userId])).has(`${job.userId}:${job.kind}`);
      if (!reader || reader.deactivatedAt || turnedOff) {
        await tx.update(notifications).set({ mail: 'off' }).where(inArray(notifications.id, ids));
        return;
      }
      await tx.update(notifications).set({ mail: 'sent', mailedAt: now() }).where(inArray(notifications.id, ids));
      const links = { origin: deps.origin(), unsubscribe: unsubscribeUrl(job.userId, job.kind) };
      let mail: Mail;
      if (job.mail) {
        const headers = unsubscribeHeaders(links.unsubscribe);
        mail = { ...job.mail, ...(headers && { headers: { ...job.mail.headers, ...headers } }) };
      } else if (pending.length === 1) mail = await noticeMail(mailReader(reader, pending[0]!), pending[0]!, links, now());
      else mail = await digestMail(reader, job.kind, pending, links);
      // Inside the transaction: a failed send rolls the claim back and the outbox retries.
      await deps.mailer.send(mail);
    });
  }

  return {
    tell,
    /** Starts delivery of what a committed transaction told. */
    kick: () => deps.outbox.kick(),
    pushNotice,
    mailNotices,
    unsubscribeUrl,

    async list(userId: number, query: { before?: number; limit: number }) {
      const rows = await db
        .select()
        .from(notifications)
        .where(and(eq(notifications.userId, userId), query.before ? lt(notifications.id, query.before) : undefined))
        .orderBy(desc(notifications.id))
        .limit(query.limit + 1);
      return { data: { items: rows.slice(0, query.limit).map(present), unread: await unreadOf(db, userId), more: rows.length > query.limit } };
    },

    async unread(userId: number) {
      return { data: { unread: await unreadOf(db, userId) } };
    },

    async markRead(userId: number, id: number) {
      const [row] = await db.select({ readAt: notifications.readAt }).from(notifications).where(and(eq(notifications.id, id), eq(notifications.userId, userId)));
      // Someone else's is not found, as one that never was.
      if (!row) throw notFound();
      if (!row.readAt) await db.update(notifications).set({ readAt: now() }).where(and(eq(notifications.id, id), isNull(notifications.readAt)));
      return { data: { unread: await unreadOf(db, userId) } };
    },

    async markAllRead(userId: number) {
      await db.update(notifications).set({ readAt: now() }).where(and(eq(notifications.userId, userId), isNull(notifications.readAt)));
      return { data: { unread: 0 } };
    },

    async preferences(userId: number): Promise<{ data: MailPreference[] }> {
      const off = await mailOff(db, [userId]);
      return {
        data: notificationKinds.map((kind) => ({ kind, mail: !off.has(`${userId}:${kind}`) || !mayTurnOffMail(kind), locked: !mayTurnOffMail(kind) })),
      };
    },

    async updatePreferences(userId: number, body: { preferences: { kind: NotificationKind; mail: boolean }[] }) {
      const locked = body.preferences.filter((p) => !mayTurnOffMail(p.kind) && !p.mail);
      if (locked.length) throw badRequest('Security and payment mails cannot be turned off', { preferences: ['Security and payment mails cannot be turned off'] });
      await db.transaction(async (tx) => {
        for (const p of body.preferences) {
          if (!optionalMailKinds.includes(p.kind)) continue;
          if (p.mail) await tx.delete(notificationMailOff).where(and(eq(notificationMailOff.userId, userId), eq(notificationMailOff.kind, p.kind)));
          else await tx.insert(notificationMailOff).values({ userId, kind: p.kind }).onConflictDoNothing();
        }
      });
      return this.preferences(userId);
    },

    /** Whose and which kind a token names, with their language (the unsubscribe page); null for a bad one. */
    async readToken(token: string) {
      const read = readUnsubscribeToken(deps.secret, token);
      if (!read || !mayTurnOffMail(read.kind)) return null;
      const [user] = await db.select({ language: users.language }).from(users).where(eq(users.id, read.userId));
      return user ? { ...read, language: user.language } : null;
    },

    /** RFC 8058: the token alone turns off mail of its one kind; a wrong token is 400 and changes nothing. */
    async unsubscribe(token: string) {
      const read = readUnsubscribeToken(deps.secret, token);
      if (!read || !mayTurnOffMail(read.kind)) throw badRequest('This unsubscribe link is not valid');
      const [user] = await db.select({ id: users.id }).from(users).where(eq(users.id, read.userId));
      if (!user) throw badRequest('This unsubscribe link is not valid');
      await db.insert(notificationMailOff).values({ userId: read.userId, kind: read.kind }).onConflictDoNothing();
      return { data: { kind: read.kind }, message: 'You will no longer get these mails' };
    },
  };
}

export type Notifications = ReturnType<typeof createNotifications>;
