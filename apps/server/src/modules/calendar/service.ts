// Calendars: a user's private feed (its address made, shown again, rotated, turned off) and what it
// serves, and one session's .ics for "Add to calendar". A feed lists the sessions a user has for
// sure: a student's bought courses and batches (not the open sessions a trial lets them see, which
// would fill a calendar with classes they never chose), a teacher's own courses', an admin's all;
// from `calendarFeedPastDays` back, cancelled ones included as STATUS:CANCELLED so a calendar that
// already shows them takes them off.
import { and, asc, eq, gte, isNull, sql, type SQL } from 'drizzle-orm';
import { apiRoutes } from '@mooz/contract/api-routes';
import { pathOf } from '@mooz/contract/endpoint';
import { limits } from '@mooz/contract/limits';
import { messages } from '@mooz/contract/messages';
import type { CalendarFeed } from '@mooz/contract/calendar';
import type { Database } from '../../db/client';
import { classSessions, courses, users } from '../../db/schema/index';
import type { AuthUser } from '../../http/authenticate';
import { notFound } from '../../http/errors';
import { inScope, scopeCondition, sessionScope } from '../sessions';
import { sessionsCalendar, type CalendarSession } from './ics';
import { calendarToken, newCalendarKey, tokenMatches, tokenUserId } from './tokens';

type Caller = Pick<AuthUser, 'id' | 'userType'>;

interface CalendarDeps {
  db: Database;
  /** Signs feed tokens (the server's JWT secret). */
  secret: string;
  /** The app's address for a request (modules/sessions/join-link.ts). */
  origin: (request?: { protocol: string; host: string }) => string;
  now?: () => Date;
}

const DAY = 24 * 60 * 60 * 1000;

export function createCalendarService(deps: CalendarDeps) {
  const { db } = deps;
  const now = deps.now ?? (() => new Date());
  const uidDomain = () => {
    try {
      return new URL(deps.origin()).hostname || 'mooz';
    } catch {
      return 'mooz';
    }
  };

  async function account(userId: number) {
    const [row] = await db
      .select({
        id: users.id,
        userType: users.userType,
        language: users.language,
        isActive: users.isActive,
        deactivatedAt: users.deactivatedAt,
        calendarKey: users.calendarKey,
        calendarKeyCreatedAt: users.calendarKeyCreatedAt,
      })
      .from(users)
      .where(eq(users.id, userId));
    return row;
  }

  function present(userId: number, key: string, createdAt: Date, request: { protocol: string; host: string }): CalendarFeed {
    const url = deps.origin(request) + pathOf(apiRoutes.calendar.ics, { token: calendarToken(deps.secret, userId, key) });
    return { url, webcal_url: url.replace(/^https?:/, 'webcal:'), created_at: createdAt.toISOString() };
  }

  async function sessionsWhere(where: SQL | undefined, limit: number): Promise<CalendarSession[]> {
    const rows = await db
      .select({
        session: classSessions,
        courseName: courses.name,
        timeZone: courses.timeZone,
        teacher: { firstName: users.firstName, lastName: users.lastName },
      })
      .from(classSessions)
      .innerJoin(courses, eq(courses.id, classSessions.courseId))
      .innerJoin(users, eq(users.id, courses.teacherId))
      .where(where)
      .orderBy(asc(classSessions.startsAt), asc(classSessions.id))
      .limit(limit);
    return rows.map(({ session, courseName, timeZone, teacher }) => ({
      id: session.id,
      title: session.title,
      courseName,
      teacherName: `${teacher.firstName} ${teacher.lastName}`.trim(),
      startsAt: session.startsAt,
      endsAt: session.endsAt,
      roomId: session.roomId,
      cancelledAt: session.cancelledAt,
      cancelReason: session.cancelReason,
      timeZone,
    }));
  }

  return {
    async feed(caller: Caller, request: { protocol: string; host: string }): Promise<{ data: CalendarFeed | null }> {
      const row = await account(caller.id);
      if (!row?.calendarKey || !row.calendarKeyCreatedAt) return { data: null };
      return { data: present(caller.id, row.calendarKey, row.calendarKeyCreatedAt, request) };
    },

    /** A new key: a new address, and the previous one (if any) answers 404 from now on. */
    async create(caller: Caller, request: { protocol: string; host: string }): Promise<{ data: CalendarFeed; message: string }> {
      const key = newCalendarKey();
      const at = now();
      await db.update(users).set({ calendarKey: key, calendarKeyCreatedAt: at }).where(eq(users.id, caller.id));
      return { data: present(caller.id, key, at, request), message: messages.calendarFeedCreated };
    },

    async revoke(caller: Caller): Promise<{ data: null; message: string }> {
      await db.update(users).set({ calendarKey: null, calendarKeyCreatedAt: null }).where(eq(users.id, caller.id));
      return { data: null, message: messages.calendarFeedRevoked };
    },

    /** The feed behind a token: 404 for a malformed, unknown, rotated or revoked token, or a closed account. */
    async feedIcs(token: string): Promise<string> {
      const userId = tokenUserId(token);
      const row = userId === null ? undefined : await account(userId);
      if (!row || !tokenMatches(deps.secret, row.id, row.calendarKey, token) || !row.isActive || row.deactivatedAt) throw notFound();
      const at = now();
      const scope = await sessionScope(db, row, at);
      // What the user has for sure: not a trial's open sessions of every course.
      const chosen = scope.all ? scope : { ...scope, openEverywhere: false };
      const sessions = await sessionsWhere(
        and(
          gte(classSessions.endsAt, new Date(at.getTime() - limits.calendarFeedPastDays * DAY)),
          scopeCondition(chosen, { courseId: sql`${classSessions.courseId}`, batchId: sql`${classSessions.batchId}` }),
        ),
        limits.calendarFeedMaxEvents,
      );
      return sessionsCalendar(sessions, { origin: deps.origin(), uidDomain: uidDomain(), language: row.language, now: at, kind: 'feed' });
    },

    /** One session the caller may see (the sessions list's rule), not cancelled; 404 otherwise. */
    async sessionIcs(caller: Caller, id: number): Promise<{ body: string; fileName: string }> {
      const [session] = await sessionsWhere(and(eq(classSessions.id, id), isNull(classSessions.cancelledAt)), 1);
      if (!session) throw notFound(messages.sessionNotFound);
      const [row] = await db.select({ courseId: classSessions.courseId, batchId: classSessions.batchId }).from(classSessions).where(eq(classSessions.id, id));
      if (!row || !inScope(await sessionScope(db, caller, now()), row)) throw notFound(messages.sessionNotFound);
      const language = (await account(caller.id))?.language ?? null;
      const body = sessionsCalendar([session], { origin: deps.origin(), uidDomain: uidDomain(), language, now: now(), kind: 'single' });
      const slug = session.title.replace(/[^\p{L}\p{N}]+/gu, '-').replace(/^-+|-+$/g, '').slice(0, 60) || 'session';
      return { body, fileName: `${slug}.ics` };
    },
  };
}

export type CalendarService = ReturnType<typeof createCalendarService>;
