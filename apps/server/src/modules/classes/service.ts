// Class sessions: the caller's list (who sees what is access.ts's one rule) and teachers' scheduling.
// Status and can_join come from the clock at the time of the call; nothing about them is stored.
import { randomUUID } from 'node:crypto';
import { asc, eq, inArray, type SQL } from 'drizzle-orm';
import type { z } from 'zod';
import type { Session, sessionInput } from '@mooz/contract/courses';
import { limits } from '@mooz/contract/limits';
import { messages } from '@mooz/contract/messages';
import type { Database } from '../../db/client';
import { classSessions, courses, users } from '../../db/schema/index';
import { invalidField } from '../../http/errors';
import type { AuthUser } from '../../http/authenticate';
import type { CoursesService } from '../courses/service';
import { inScope, sessionScope } from './access';

type Caller = Pick<AuthUser, 'id' | 'userType' | 'ability'>;
type SessionRow = typeof classSessions.$inferSelect;

export interface SessionsDeps {
  db: Database;
  courses: CoursesService;
  now?: () => Date;
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

function present(row: SessionRow, courseName: string, teacher: { firstName: string; lastName: string }, allowed: boolean, now: Date): Session {
  return {
    id: row.id,
    course_id: row.courseId,
    course_name: courseName,
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
        teacher: { firstName: users.firstName, lastName: users.lastName },
      })
      .from(classSessions)
      .innerJoin(courses, eq(courses.id, classSessions.courseId))
      .innerJoin(users, eq(users.id, courses.teacherId))
      .where(where)
      .orderBy(asc(classSessions.startsAt), asc(classSessions.id));
  }

  return {
    /** Live and upcoming sessions first (soonest first), then ended ones (latest first). */
    async list(caller: Caller): Promise<{ data: Session[]; message?: string }> {
      const at = now();
      const scope = await sessionScope(db, caller, at);
      if (!scope.all && scope.courseIds.length === 0) return { data: [] };
      const rows = await rowsWhere(scope.all ? undefined : inArray(classSessions.courseId, scope.courseIds));
      const sessions = rows.map((r) => present(r.session, r.courseName, r.teacher, inScope(scope, r.session.courseId), at));
      const open = sessions.filter((s) => s.status !== 'ended');
      const ended = sessions.filter((s) => s.status === 'ended').reverse();
      return { data: [...open, ...ended] };
    },

    async schedule(caller: Caller, input: z.output<typeof sessionInput>): Promise<{ data: Session; message: string }> {
      const course = await deps.courses.taughtBy(caller, input.course_id);
      const startsAt = new Date(input.starts_at);
      const at = now();
      if (startsAt.getTime() <= at.getTime()) throw invalidField('starts_at', 'Choose a time in the future');
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
