// Class sessions: the caller's list (who sees what is access.ts's one rule) and teachers' scheduling.
// Status and can_join come from the clock at the time of the call; nothing about them is stored.
import { randomUUID } from 'node:crypto';
import { isDeepStrictEqual } from 'node:util';
import { asc, eq, isNull, sql, type SQL } from 'drizzle-orm';
import type { z } from 'zod';
import type { Session, sessionInput } from '@mooz/contract/courses';
import { limits } from '@mooz/contract/limits';
import { fillMessage, messages } from '@mooz/contract/messages';
import type { Database } from '../../db/client';
import { classSessions, courses, users } from '../../db/schema/index';
import { invalidField } from '../../http/errors';
import { sharedAnswer } from '../../http/shared-answer';
import type { AuthUser } from '../../http/authenticate';
import type { CoursesService } from '../courses';
import { cachedValue, clockWindow } from '../../infrastructure/cache';
import type { ChangeBus } from '../../infrastructure/change-bus';
import { inScope, namesCourse, scopeFrom, scopeKey, seesNothing, type ScopeFacts } from './access';

type Caller = Pick<AuthUser, 'id' | 'userType' | 'ability'>;
type SessionRow = typeof classSessions.$inferSelect;

interface SessionsDeps {
  db: Database;
  courses: CoursesService;
  /** Accounts as the access tokens remember them (modules/auth/access-tokens.ts). */
  account: ScopeFacts['account'];
  /** What drops the sessions kept in memory (infrastructure/change-bus.ts). */
  changes: ChangeBus;
  /** How long they are kept without news of a change. */
  cacheTtlMs: number;
  now?: () => Date;
  /** The most people a session's room may hold here (sfu/topology.ts: the mesh's limit without an SFU); the schema's otherwise. */
  maxCapacity?: number;
}

const joinEarlyMs = limits.sessionJoinEarlyMinutes * 60_000;

export function sessionStatus(row: Pick<SessionRow, 'startsAt' | 'endsAt'>, now: Date): Session['status'] {
  if (now < row.startsAt) return 'scheduled';
  if (now < row.endsAt) return 'live';
  return 'ended';
}

/** Open from a few minutes before the start (to check camera and microphone) until the end. */
export function joinable(row: Pick<SessionRow, 'startsAt' | 'endsAt'>, now: Date): boolean {
  return now.getTime() >= row.startsAt.getTime() - joinEarlyMs && now < row.endsAt;
}

export function present(row: SessionRow, courseName: string, teacher: { firstName: string; lastName: string }, allowed: boolean, now: Date): Session {
  return {
    id: row.id,
    course_id: row.courseId,
    course_name: courseName,
    batch_id: row.batchId,
    title: row.title,
    starts_at: row.startsAt.toISOString(),
    ends_at: row.endsAt.toISOString(),
    room_id: row.roomId,
    status: sessionStatus(row, now),
    teacher_name: `${teacher.firstName} ${teacher.lastName}`.trim(),
    capacity: row.capacity,
    can_join: allowed && joinable(row, now),
  };
}

export function createSessionsService(deps: SessionsDeps) {
  const { db } = deps;
  const now = deps.now ?? (() => new Date());

  async function rowsWhere(where: SQL | undefined) {
    return db
      .select({
        session: classSessions,
        courseName: courses.name,
        /** In the catalogue: published and not archived. */
        courseListed: sql<boolean>`${courses.published} and ${courses.archivedAt} is null`,
        teacher: { firstName: users.firstName, lastName: users.lastName },
      })
      .from(classSessions)
      .innerJoin(courses, eq(courses.id, classSessions.courseId))
      .innerJoin(users, eq(users.id, courses.teacherId))
      .where(where)
      .orderBy(asc(classSessions.startsAt), asc(classSessions.id));
  }

  // Every session with its course's and teacher's names, in start order: the list filters it per caller.
  // A cancelled session leaves every list; the cancellation writes class_sessions, which drops this copy.
  // A reload that finds the same rows keeps the same array, and with it the lists worked out from it.
  const allSessions = cachedValue(() => rowsWhere(isNull(classSessions.cancelledAt)), { ttlMs: deps.cacheTtlMs, same: isDeepStrictEqual });
  deps.changes.onTables(['class_sessions', 'courses', 'users'], () => allSessions.invalidate());
  let lists: { rows: unknown; byScope: Map<string, { answer: { data: Session[] }; from: number; until: number }> } = { rows: null, byScope: new Map() };
  const facts: ScopeFacts = {
    account: deps.account,
    taughtCourseIds: (id) => deps.courses.taughtCourseIds(id),
    purchases: (id) => deps.courses.purchases(id),
  };

  return {
    /** Live and upcoming sessions first (soonest first), then ended ones (latest first). */
    async list(caller: Caller): Promise<{ data: Session[]; message?: string }> {
      const at = now();
      const scope = await scopeFrom(facts, caller, at);
      if (seesNothing(scope)) return { data: [] };
      const all = await allSessions.get();
      if (lists.rows !== all) lists = { rows: all, byScope: new Map() };
      // Callers who see the same sessions share one answer (serialised once by route()) until the
      // sessions are read anew or the clock changes a status or can_join of one of them.
      const key = scopeKey(scope);
      const time = at.getTime();
      const kept = lists.byScope.get(key);
      if (kept && kept.from <= time && time < kept.until) return kept.answer;
      // A trial's open sessions are those of courses in the catalogue; a course one teaches or bought is listed whatever its state.
      const rows = all.filter((r) => inScope(scope, r.session) && (r.courseListed || namesCourse(scope, r.session.courseId)));
      const sessions = rows.map((r) => present(r.session, r.courseName, r.teacher, true, at));
      const open = sessions.filter((s) => s.status !== 'ended');
      const ended = sessions.filter((s) => s.status === 'ended').reverse();
      const answer = sharedAnswer({ data: [...open, ...ended] });
      const { from, until } = clockWindow(
        rows.flatMap(({ session }) => [session.startsAt.getTime() - joinEarlyMs, session.startsAt.getTime(), session.endsAt.getTime()]),
        time,
      );
      if (lists.byScope.size >= 1000) lists.byScope.clear();
      lists.byScope.set(key, { answer, from, until });
      return answer;
    },

    async schedule(caller: Caller, input: z.output<typeof sessionInput>): Promise<{ data: Session; message: string }> {
      const course = await deps.courses.taughtBy(caller, input.course_id);
      const startsAt = new Date(input.starts_at);
      const at = now();
      if (startsAt.getTime() <= at.getTime()) throw invalidField('starts_at', 'Choose a time in the future');
      if (deps.maxCapacity !== undefined && input.capacity > deps.maxCapacity) {
        throw invalidField('capacity', fillMessage(messages.roomCapacityOver, { max: deps.maxCapacity }));
      }
      const [row] = await db
        .insert(classSessions)
        .values({
          courseId: course.id,
          title: input.title,
          startsAt,
          endsAt: new Date(startsAt.getTime() + input.duration_minutes * 60_000),
          roomId: randomUUID(),
          capacity: input.capacity,
        })
        .returning();
      const [created] = await rowsWhere(eq(classSessions.id, row!.id));
      return { data: present(created!.session, created!.courseName, created!.teacher, true, at), message: messages.sessionScheduled };
    },
  };
}

export type SessionsService = ReturnType<typeof createSessionsService>;
