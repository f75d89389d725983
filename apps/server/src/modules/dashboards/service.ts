// The student and teacher dashboards (contract "Dashboards and bookmarks"): every number from what
// happened (attendance, watch_log, submissions, certificates), computed at the time of the call in the
// caller's zone. A student reads their own; a teacher their own; an admin the whole platform's, or one
// person's with student_id / teacher_id (anyone else sending those gets 403). Each dashboard is one
// statement for its numbers plus a few small ones (the next class, skills, certificates), run at once.
// A student's numbers, progress, certificates and next class (its row: its status and whether it can
// be joined are worked out at each call) are kept in memory (kept-answers.ts) until the first instant
// the clock alone would change them or a write to a table they come from, whichever is first.
import { and, asc, desc, eq, gt, isNull, lte, sql, type SQL } from 'drizzle-orm';
import type { z } from 'zod';
import { apiRoutes } from '@mooz/contract/api-routes';
import type { Session } from '@mooz/contract/courses';
import type { StudentDashboard, TeacherDashboard, studentDashboardQuery, teacherDashboardQuery } from '@mooz/contract/dashboards';
import { limits } from '@mooz/contract/limits';
import { messages } from '@mooz/contract/messages';
import type { UserType } from '@mooz/contract/permissions';
import type { Database } from '../../db/client';
import { classSessions, courses, users } from '../../db/schema/index';
import { forbidden, notFound } from '../../http/errors';
import type { ChangeBus } from '../../infrastructure/change-bus';
import { databaseFacts, idArray, present, scopeCondition, scopeFrom, type SessionScope } from '../sessions';
import { courseProgress, type CourseProgress } from '../learning';
import { keptAnswers } from './kept-answers';
import { attendanceSpans, hours, learnerLiveSeconds, learnerWatchedSeconds, learningTimeRules, liveSeconds } from './learning-time';
import { skillLevels } from './skills';
import { checkTimeZone, localWeek } from './time-zone';

interface Caller {
  id: number;
  userType: UserType;
}

export interface DashboardsDeps {
  db: Database;
  /** Issues the certificates the rule grants a student by now (certificates/earn.ts), before they are listed. */
  earnCertificates?: (db: Database, userId: number, now: Date, progress: CourseProgress[]) => Promise<unknown>;
  /** When given, a student's numbers are kept until a write to a table they are read from (`studentTables`) or the clock changes them. */
  changes?: Pick<ChangeBus, 'onTables'>;
  /** How long a kept answer may be used without news from the database (the fallback when no change reaches this process). */
  cacheTtlMs?: number;
}

/** Every table a student's kept numbers, progress and certificates are read from. */
export const studentTables = [
  'users',
  'subscriptions',
  'courses',
  'batches',
  'class_sessions',
  'attendance',
  'watch_log',
  'recordings',
  'recording_views',
  'assignments',
  'assignment_submissions',
  'certificates',
  'polls',
  'poll_answers',
] as const;

const rowsOf = <T>(result: unknown) => (result as { rows: T[] }).rows;
const isoOrNull = (epochMs: number | string | null) => (epochMs === null ? null : new Date(Number(epochMs)).toISOString());
const json = <T>(value: unknown): T => (typeof value === 'string' ? (JSON.parse(value) as T) : (value as T));

/** Whose dashboard: one person (their id) or, for an admin without one, everybody's (null). */
async function subject(db: Database, caller: Caller, wanted: number | undefined, kind: 'student' | 'teacher'): Promise<number | null> {
  if (wanted === undefined) return caller.userType === 'admin' ? null : caller.id;
  if (caller.userType !== 'admin') throw forbidden();
  const [row] = await db.select({ id: users.id }).from(users).where(and(eq(users.id, wanted), eq(users.userType, kind)));
  if (!row) throw notFound(messages.userNotFound);
  return row.id;
}

/** Sessions with their course's and teacher's names. */
function sessionRowsWhere(db: Database, where: SQL | undefined, order: 'soonest' | 'latest', limit: number) {
  return db
    .select({ session: classSessions, courseName: courses.name, teacher: { firstName: users.firstName, lastName: users.lastName } })
    .from(classSessions)
    .innerJoin(courses, eq(courses.id, classSessions.courseId))
    .innerJoin(users, eq(users.id, courses.teacherId))
    .where(where)
    .orderBy(...(order === 'soonest' ? [asc(classSessions.startsAt), asc(classSessions.id)] : [desc(classSessions.startsAt), desc(classSessions.id)]))
    .limit(limit);
}

type SessionRow = Awaited<ReturnType<typeof sessionRowsWhere>>[number];

/** Sessions with their course's and teacher's names, presented as the sessions list presents them. */
async function sessionsWhere(db: Database, where: SQL | undefined, order: 'soonest' | 'latest', limit: number, now: Date): Promise<Session[]> {
  const rows = await sessionRowsWhere(db, where, order, limit);
  return rows.map((r) => present(r.session, r.courseName, r.teacher, true, now));
}

/** The courses a scope names itself (taught, bought): their sessions are seen even when unlisted. */
function namedCourses(scope: SessionScope): number[] {
  if (scope.all) return [];
  return [...scope.wholeCourseIds, ...scope.batches.map((b) => b.courseId)];
}

const certificateLinks = (id: string) => ({
  url: apiRoutes.certificates.pdf.path.replace(':id', encodeURIComponent(id)),
  verify_url: `/certificates/${encodeURIComponent(id)}`,
});

export function createDashboardsService(deps: DashboardsDeps) {
  const { db } = deps;

  async function studentNumbers(studentId: number | null, bounds: Date[], now: Date) {
    const who = (column: string) => (studentId === null ? sql`${sql.raw(column)} in (select id from users where user_type = 'student')` : sql`${sql.raw(column)} = ${studentId}`);
    // A read that starts with SELECT: db/changes.ts counts a statement that starts with WITH as a write
    // of every table (it may hold an INSERT), which would drop every cache of the process at each call.
    const result = await db.execute(sql`select * from (
      with mine as (select user_id, course_id from subscriptions where status = 'active' and ${who('user_id')}),
      tasks as (
        select t.id, t.title, t.course_id, c.name as course_name, t.due_at,
          exists (select 1 from assignment_submissions s where s.assignment_id = t.id and s.user_id = m.user_id) as done
        from mine m join assignments t on t.course_id = m.course_id join courses c on c.id = t.course_id),
      quiz as (
        select p.correct, a.choices
        from mine m join class_sessions cs on cs.course_id = m.course_id
          join polls p on p.session_id = cs.id and p.graded
          left join poll_answers a on a.poll_id = p.id and a.user_id = m.user_id)
      select
        ${studentId === null ? sql`''` : sql`(select trim(first_name || ' ' || last_name) from users where id = ${studentId})`} as name,
        ${learnerLiveSeconds(who, now, bounds)} as live,
        ${learnerWatchedSeconds(who, bounds)} as watched,
        (select count(*)::int from tasks) as tasks_total,
        (select count(*)::int from tasks where done) as tasks_done,
        (select json_build_object('total', count(*), 'answered', count(choices), 'correct', count(*) filter (where choices = correct)) from quiz) as quizzes,
        ${
          studentId === null
            ? sql`'[]'::json`
            : sql`(select coalesce(json_agg(json_build_object('id', d.id, 'title', d.title, 'course_id', d.course_id, 'course_name', d.course_name,
                  'due_at', (extract(epoch from d.due_at) * 1000)::float8) order by d.due_at asc nulls last, d.id), '[]'::json)
                from (select * from tasks where not done order by due_at asc nulls last, id limit 5) d)`
        } as due,
        (select coalesce(json_object_agg(c.id, c.skills), '{}'::json) from courses c where c.id in (select course_id from mine)) as skills,
        ${
          // Until when these numbers hold by the clock alone: the course zones' dates (the earning rule),
          // the next class of the student's courses to start (progress counts the classes started), and
          // whether a row still open is counting up to now (then not at all).
          studentId === null
            ? sql`null::json as zones, null::float8 as next_start, null::boolean as growing`
            : sql`(select coalesce(json_agg(distinct c.time_zone), '[]'::json) from courses c where c.id in (select course_id from mine)) as zones,
              (select (extract(epoch from min(cs.starts_at)) * 1000)::float8 from class_sessions cs
                where cs.course_id in (select course_id from mine) and cs.cancelled_at is null and cs.starts_at > ${now.toISOString()}::timestamptz) as next_start,
              exists (select 1 from attendance a join class_sessions s on s.id = a.session_id
                where a.user_id = ${studentId} and a.left_at is null
                  and s.ends_at + make_interval(mins => ${learningTimeRules.openRowGraceMinutes}) > ${now.toISOString()}::timestamptz) as growing`
        }) numbers`);
    const [row] = rowsOf<{
      name: string | null;
      live: unknown;
      watched: unknown;
      tasks_total: number;
      tasks_done: number;
      quizzes: unknown;
      due: unknown;
      skills: unknown;
      zones: unknown;
      next_start: number | null;
      growing: boolean | null;
    }>(result);
    return row!;
  }

  /** What the clock changes in a student's numbers, progress and certificates: the first instant (ms) they may differ from those at `now`. */
  function holdsUntil(numbers: Awaited<ReturnType<typeof studentNumbers>>, week: { bounds: Date[] }, now: Date): number {
    if (numbers.growing) return now.getTime();
    const instants = [week.bounds.at(-1)!.getTime()];
    // An ended batch earns its certificate from the next local day of its course.
    for (const zone of json<string[] | null>(numbers.zones) ?? []) instants.push(localWeek(zone, now).bounds.at(-1)!.getTime());
    if (numbers.next_start !== null) instants.push(Number(numbers.next_start));
    return Math.min(...instants);
  }

  const kept = keptAnswers<{
    numbers: Awaited<ReturnType<typeof studentNumbers>>;
    certificates: StudentDashboard['certificates'];
    progress: CourseProgress[];
    next: SessionRow | null;
  }>({ ttlMs: deps.cacheTtlMs ?? 5000, maxEntries: 1000 });
  deps.changes?.onTables(studentTables, () => kept.invalidate());

  /** The student's numbers, certificates (after issuing those earned), progress and next class, at `now`. */
  async function studentParts(studentId: number | null, tz: string, week: { bounds: Date[] }, now: Date) {
    const load = async () => {
      const progressRead = studentId === null ? Promise.resolve([]) : courseProgress(db, studentId, { now });
      const [numbers, certificates, progress, next] = await Promise.all([
        studentNumbers(studentId, week.bounds, now),
        certificatesOf(studentId, now, progressRead),
        progressRead,
        nextClassOf(studentId, now),
      ]);
      return { value: { numbers, certificates, progress, next: next.row }, until: Math.min(holdsUntil(numbers, week, now), next.until) };
    };
    if (studentId === null || !deps.changes) return (await load()).value;
    return kept.get(`${studentId} ${tz}`, now.getTime(), load);
  }

  /** The student's certificates, after issuing those earned by now (with the progress the skills are made of, read once). */
  async function certificatesOf(studentId: number | null, now: Date, progress: Promise<CourseProgress[]>): Promise<StudentDashboard['certificates']> {
    if (studentId !== null && deps.earnCertificates) await deps.earnCertificates(db, studentId, now, await progress);
    const result = await db.execute(sql`
      select id, course_name, issued_at from certificates
      where revoked_at is null ${studentId === null ? sql`` : sql`and user_id = ${studentId}`}
      order by issued_at desc, id limit ${studentId === null ? 20 : 1000}`);
    return rowsOf<{ id: string; course_name: string; issued_at: string | Date }>(result).map((c) => ({
      id: c.id,
      course_name: c.course_name,
      issued_at: new Date(c.issued_at).toISOString(),
      ...certificateLinks(c.id),
    }));
  }

  /**
   * The earliest live or upcoming session the student may attend (the sessions list's rule), or any for
   * the platform; `until`: it stays the one until it ends (sessions only leave the live or upcoming ones
   * as time passes) or, for a student in trial (who sees every course's open sessions), the trial ends.
   */
  async function nextClassOf(studentId: number | null, now: Date): Promise<{ row: SessionRow | null; until: number }> {
    const facts = databaseFacts(db);
    let account: Awaited<ReturnType<typeof facts.account>>;
    const scope: SessionScope =
      studentId === null
        ? { all: true }
        : await scopeFrom({ ...facts, account: async (id) => (account = await facts.account(id)) }, { id: studentId, userType: 'student' }, now);
    const listed = scope.all
      ? sql`true`
      : sql`((${courses.published} and ${courses.archivedAt} is null) or ${courses.id} = any(${idArray(namedCourses(scope))}))`;
    const where = and(
      isNull(classSessions.cancelledAt),
      gt(classSessions.endsAt, now),
      scopeCondition(scope, { courseId: sql`${classSessions.courseId}`, batchId: sql`${classSessions.batchId}` }),
      listed,
    );
    const [next] = await sessionRowsWhere(db, where, 'soonest', 1);
    const instants = next ? [next.session.endsAt.getTime()] : [];
    // In trial while a whole second remains (auth/trial.ts).
    if (!scope.all && scope.openEverywhere && account?.trialEndsAt) instants.push(account.trialEndsAt.getTime() - 1000);
    return { row: next ?? null, until: Math.min(Infinity, ...instants) };
  }

  return {
    async student(caller: Caller, query: z.output<typeof studentDashboardQuery>, now: Date): Promise<{ data: StudentDashboard }> {
      const tz = checkTimeZone(query.tz);
      const studentId = await subject(db, caller, query.student_id, 'student');
      const week = localWeek(tz, now);
      const { numbers, certificates, progress, next } = await studentParts(studentId, tz, week, now);
      const nextClass = next && present(next.session, next.courseName, next.teacher, true, now);
      const skillsByCourse = json<Record<string, string[]>>(numbers.skills);
      const skills = skillLevels(progress, new Map(Object.entries(skillsByCourse).map(([id, list]) => [Number(id), list])));
      const [live = 0, ...liveDays] = json<number[]>(numbers.live).map(Number);
      const [watched = 0, ...watchedDays] = json<number[]>(numbers.watched).map(Number);
      return {
        data: {
          student_name: numbers.name ?? '',
          learning_stats: {
            total_learning_hours: hours(live + watched),
            assignments_completed: Number(numbers.tasks_done),
            assignments_total: Number(numbers.tasks_total),
          },
          skills,
          weekly_learning_trends: week.dates.map((date, i) => ({ date, hours: hours((liveDays[i] ?? 0) + (watchedDays[i] ?? 0)) })),
          certificates,
          live_hours: hours(live),
          recording_hours: hours(watched),
          next_class: nextClass,
          assignments_due: json<{ id: number; title: string; course_id: number; course_name: string; due_at: number | null }[]>(numbers.due).map((d) => ({
            id: Number(d.id),
            title: d.title,
            course_id: Number(d.course_id),
            course_name: d.course_name,
            due_at: isoOrNull(d.due_at),
          })),
          quizzes: json<StudentDashboard['quizzes']>(numbers.quizzes),
          tz,
        },
      };
    },

    async teacher(caller: Caller, query: z.output<typeof teacherDashboardQuery>, now: Date): Promise<{ data: TeacherDashboard }> {
      const tz = checkTimeZone(query.tz);
      const teacherId = await subject(db, caller, query.teacher_id, 'teacher');
      const week = localWeek(tz, now);
      const at = now.toISOString();
      const weekAhead = new Date(now.getTime() + limits.upcomingWindowDays * 24 * 3600_000).toISOString();
      const monthAgo = new Date(now.getTime() - 30 * 86_400_000).toISOString();
      // The teacher's courses (the platform's: every course, each with its own teacher).
      const taught = teacherId === null ? sql`true` : sql`c.teacher_id = ${teacherId}`;
      // Whether the session's teacher joined it: one teacher's sessions joined read once (a hashed set),
      // not their attendance probed for each session; the platform's, session by session.
      const teacherAttended = (sessionId: SQL, sessionTeacher: SQL) =>
        teacherId === null
          ? sql`exists (select 1 from attendance a where a.session_id = ${sessionId} and a.user_id = ${sessionTeacher})`
          : sql`${sessionId} in (select a.session_id from attendance a where a.user_id = ${teacherId})`;
      const taughtCourse = (column: string) =>
        teacherId === null ? sql`true` : sql`${sql.raw(column)} in (select id from courses where teacher_id = ${teacherId})`;
      const numbers = db.execute(sql`
        select
          ${teacherId === null ? sql`null` : sql`(select trim(first_name || ' ' || last_name) from users where id = ${teacherId})`} as name,
          ${liveSeconds(
            // A teacher's own rows first (OFFSET 0 keeps them first: without statistics the planner
            // walked every session of theirs and probed its attendance).
            teacherId === null
              ? attendanceSpans(sql`a.user_id = c.teacher_id`, now, sql`join class_sessions ts on ts.id = a.session_id join courses c on c.id = ts.course_id`)
              : attendanceSpans(
                  sql`c.teacher_id = ${teacherId}`,
                  now,
                  sql`join class_sessions ts on ts.id = a.session_id join courses c on c.id = ts.course_id`,
                  sql`(select * from attendance a where a.user_id = ${teacherId} offset 0) a`,
                ),
            week.bounds,
          )} as teaching,
          (select count(*)::int from (
              -- The last 30 days' rows first, then whether their session is the teacher's (a set read
              -- once), rather than every session ever taught probed for rows.
              select a.user_id from (
                select a.user_id, a.session_id from attendance a
                where (a.joined_at >= ${monthAgo}::timestamptz or a.left_at >= ${monthAgo}::timestamptz) and a.joined_at <= ${at}::timestamptz
                offset 0) a
              where a.session_id in (select s.id from class_sessions s where ${taughtCourse('s.course_id')})
              union
              select w.user_id from watch_log w
              where w.course_id is not null and ${taughtCourse('w.course_id')}
                and w.watched_at >= ${monthAgo}::timestamptz and w.watched_at <= ${at}::timestamptz
            ) seen join users u on u.id = seen.user_id and u.user_type = 'student') as active_students,
          (select count(*)::int from class_sessions s where ${taughtCourse('s.course_id')} and s.cancelled_at is null
            and s.starts_at > ${at}::timestamptz) as upcoming,
          (select count(*)::int from class_sessions s where ${taughtCourse('s.course_id')} and s.cancelled_at is null
            and s.starts_at > ${at}::timestamptz and s.starts_at <= ${weekAhead}::timestamptz) as upcoming_week,
          (select count(*)::int from class_sessions s join courses c on c.id = s.course_id
            where ${taught} and s.cancelled_at is null and s.ends_at <= ${at}::timestamptz
              and not ${teacherAttended(sql`s.id`, sql`c.teacher_id`)}) as missing,
          (select count(*)::int from assignment_submissions sub join assignments t on t.id = sub.assignment_id
            where sub.status = 'submitted' and ${taughtCourse('t.course_id')}) as pending_total,
          (select coalesce(json_agg(p.review order by p.submitted_at, p.submission_id), '[]'::json) from (
              select sub.submitted_at, sub.id as submission_id, json_build_object(
                'submission_id', sub.id, 'assignment_id', t.id, 'assignment_title', t.title, 'course_id', c.id, 'course_name', c.name,
                'student_name', trim(u.first_name || ' ' || u.last_name), 'submitted_at', (extract(epoch from sub.submitted_at) * 1000)::float8) as review
              from assignment_submissions sub join assignments t on t.id = sub.assignment_id join courses c on c.id = t.course_id
                join users u on u.id = sub.user_id
              where sub.status = 'submitted' and ${taught}
              order by sub.submitted_at, sub.id limit 20) p) as pending`);
      const mySessions = teacherId === null ? undefined : sql`${courses.teacherId} = ${teacherId}`;
      const notCancelled = isNull(classSessions.cancelledAt);

      const [result, next, missed] = await Promise.all([
        numbers,
        sessionsWhere(db, and(mySessions, notCancelled, gt(classSessions.endsAt, now)), 'soonest', 1, now),
        sessionsWhere(db, and(mySessions, notCancelled, lte(classSessions.endsAt, now), sql`not ${teacherAttended(sql`${classSessions.id}`, sql`${courses.teacherId}`)}`), 'latest', 10, now),
      ]);
      const [row] = rowsOf<{
        name: string | null;
        teaching: unknown;
        active_students: number;
        upcoming: number;
        upcoming_week: number;
        missing: number;
        pending_total: number;
        pending: unknown;
      }>(result);
      const [teaching = 0, ...days] = json<number[]>(row!.teaching).map(Number);
      return {
        data: {
          stats: {
            totalTeachingHours: hours(teaching),
            activeStudents: Number(row!.active_students),
            upcomingClasses: Number(row!.upcoming),
            nextClass: next[0] ?? null,
            missingClasses: Number(row!.missing),
          },
          upcomingWeek: Number(row!.upcoming_week),
          weeklyTrends: week.dates.map((date, i) => ({ date, hours: hours(days[i] ?? 0) })),
          missedClasses: missed,
          pendingReviews: json<(Omit<TeacherDashboard['pendingReviews'][number], 'submitted_at'> & { submitted_at: number })[]>(row!.pending).map((p) => ({
            submission_id: Number(p.submission_id),
            assignment_id: Number(p.assignment_id),
            assignment_title: p.assignment_title,
            course_id: Number(p.course_id),
            course_name: p.course_name,
            student_name: p.student_name,
            submitted_at: new Date(Number(p.submitted_at)).toISOString(),
          })),
          pendingReviewsTotal: Number(row!.pending_total),
          teacherName: row!.name,
          tz,
        },
      };
    },
  };
}

export type DashboardsService = ReturnType<typeof createDashboardsService>;
