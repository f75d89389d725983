// The course rules: the public catalogue, "my courses", and teachers' (and admins') editing.
import { isDeepStrictEqual } from 'node:util';
import { and, asc, eq, inArray, isNull } from 'drizzle-orm';
import { subject } from '@casl/ability';
import type { z } from 'zod';
import type { Course, coursePatch, courseInput, MyCourse } from '@mooz/contract/courses';
import { messages } from '@mooz/contract/messages';
import type { Database } from '../../db/client';
import { batches, courses, subscriptions, users } from '../../db/schema/index';
import { badRequest, forbidden, invalidField, notFound } from '../../http/errors';
import { sharedAnswer } from '../../http/shared-answer';
import type { AuthUser } from '../../http/authenticate';
import { cachedMap, cachedValue, clockWindow } from '../../infrastructure/cache';
import type { ChangeBus } from '../../infrastructure/change-bus';
import { firstStartOf, presentCourse, presentMyCourse, type CourseRow, type SubscriptionRow, type TeacherName } from './presenter';
import { isActiveSubscription, purchases as purchasesOf } from './purchases';
import { applyListChanges, checkBatchCount, openBatchesFromLists } from '../batches';
import type { BatchRow } from '../batches';

type Caller = Pick<AuthUser, 'id' | 'userType' | 'ability'>;

interface CoursesDeps {
  db: Database;
  /** What drops the courses and purchases kept in memory (infrastructure/change-bus.ts). */
  changes: ChangeBus;
  /** How long they are kept without news of a change. */
  cacheTtlMs: number;
  now?: () => Date;
}

const withTeacher = {
  course: courses,
  teacher: { firstName: users.firstName, lastName: users.lastName },
};

export function createCoursesService(deps: CoursesDeps) {
  const { db } = deps;
  const now = deps.now ?? (() => new Date());

  async function activeSubscriptions(userId: number): Promise<SubscriptionRow[]> {
    return db
      .select()
      .from(subscriptions)
      .where(and(eq(subscriptions.userId, userId), isActiveSubscription()));
  }

  // Every course with its teacher's name, in catalogue order (name, then id, as the database sorts),
  // and each student's bought courses: what the catalogue and the sessions list read on every call.
  // A reload that finds the same rows keeps the same array (`same`), so the catalogue as presented
  // from it (below) and its serialised bytes stay: every reload re-presenting it stalled every request.
  const allCourses = cachedValue(
    () =>
      db
        .select(withTeacher)
        .from(courses)
        .innerJoin(users, eq(users.id, courses.teacherId))
        .orderBy(asc(courses.name), asc(courses.id)),
    { ttlMs: deps.cacheTtlMs, same: isDeepStrictEqual },
  );
  deps.changes.onTables(['courses', 'users'], () => allCourses.invalidate());
  // Every batch, by course: seats left change with each purchase, so they are dropped with it.
  const allBatches = cachedValue(
    async () => {
      const byCourse = new Map<number, BatchRow[]>();
      const rows = await db.select().from(batches).orderBy(asc(batches.startDate), asc(batches.id));
      for (const row of rows) byCourse.set(row.courseId, [...(byCourse.get(row.courseId) ?? []), row]);
      return byCourse;
    },
    { ttlMs: deps.cacheTtlMs, same: isDeepStrictEqual },
  );
  deps.changes.onTables(['batches'], () => allBatches.invalidate());
  const batchesOfCourse = async () => {
    const byCourse = await allBatches.get();
    return (courseId: number) => byCourse.get(courseId) ?? [];
  };
  const purchases = cachedMap((userId: number) => purchasesOf(db, userId), { ttlMs: deps.cacheTtlMs, maxEntries: 100_000 });
  deps.changes.onTables(['subscriptions'], () => purchases.invalidate());

  // The catalogue as presented, shared by every caller until the rows or the batches are read anew or
  // the clock crosses a batch's first start (its `started`): working out each batch's meetings in its
  // course's time zone (Intl) was two thirds of a catalogue request's CPU when done per request. Only
  // `enrolled` is the caller's own: each course is kept presented both ways, and the answer for each set
  // of bought courses is kept too, so that route() sends its bytes again (http/shared-answer.ts).
  type Listed = { id: number; plain: Course; enrolled: () => Course };
  type Listing = { courses: Listed[]; answers: Map<string, { data: Course[] }> };
  let presented: { rows: unknown; byCourse: unknown; from: number; until: number; listing: Listing } | null = null;
  function listing(rows: Awaited<ReturnType<typeof allCourses.get>>, byCourse: Map<number, BatchRow[]>, at: Date): Listing {
    const time = at.getTime();
    if (presented && presented.rows === rows && presented.byCourse === byCourse && presented.from <= time && time < presented.until) {
      return presented.listing;
    }
    const list = rows
      .filter((r) => r.course.published && !r.course.archivedAt)
      .map((r): Listed => {
        const plain = presentCourse(r.course, r.teacher, false, byCourse.get(r.course.id) ?? [], at);
        let enrolled: Course | undefined;
        return { id: r.course.id, plain, enrolled: () => (enrolled ??= { ...plain, enrolled: true }) };
      });
    const { from, until } = clockWindow(
      list.flatMap((entry) => entry.plain.batches.map((batch) => firstStartOf(batch).getTime())),
      time,
    );
    presented = { rows, byCourse, from, until, listing: { courses: list, answers: new Map() } };
    return presented.listing;
  }

  async function findWithTeacher(id: number): Promise<{ course: CourseRow; teacher: TeacherName } | undefined> {
    const [row] = await db.select(withTeacher).from(courses).innerJoin(users, eq(users.id, courses.teacherId)).where(eq(courses.id, id));
    return row;
  }

  const canEdit = (caller: Caller, row: CourseRow) =>
    caller.ability.can('update', subject('Course', { teacher_id: row.teacherId } as Record<string, unknown>));

  /** Admins may name the teacher of a course; it must be a teacher's (or an admin's) account. */
  async function teacherFor(caller: Caller, requested: number | undefined): Promise<number> {
    if (requested === undefined || requested === caller.id) return caller.id;
    if (caller.userType !== 'admin') throw invalidField('teacher_id', 'You can only create courses you teach');
    const [row] = await db.select({ userType: users.userType }).from(users).where(eq(users.id, requested));
    if (!row || row.userType === 'student') throw invalidField('teacher_id', 'Choose a teacher');
    return requested;
  }

  return {
    /** Published courses, each marked with whether the caller bought it. */
    async catalogue(caller: Caller): Promise<{ data: Course[]; message?: string }> {
      const [rows, owned, byCourse] = await Promise.all([allCourses.get(), purchases.get(caller.id), allBatches.get()]);
      const listed = listing(rows, byCourse, now());
      // Callers who bought the same courses get the very same answer, serialised once (route()).
      const key = owned.length ? owned.map((p) => p.courseId).sort((a, b) => a - b).join(',') : '';
      const kept = listed.answers.get(key);
      if (kept) return kept;
      const bought = new Set(owned.map((p) => p.courseId));
      const answer = sharedAnswer({ data: listed.courses.map((entry) => (bought.has(entry.id) ? entry.enrolled() : entry.plain)) });
      if (listed.answers.size >= 1000) listed.answers.clear();
      listed.answers.set(key, answer);
      return answer;
    },

    /** The courses a teacher teaches, as last read. */
    async taughtCourseIds(teacherId: number): Promise<number[]> {
      return (await allCourses.get()).filter((r) => r.course.teacherId === teacherId).map((r) => r.course.id);
    },

    /** What a student bought (active subscriptions: course and batch), as last read. */
    purchases: (userId: number) => purchases.get(userId),

    /** Students: the courses they paid for, with their batch. Teachers: what they teach. Admins: every course. */
    async myCourses(caller: Caller): Promise<{ data: MyCourse[]; message?: string }> {
      if (caller.userType === 'student') {
        const owned = await activeSubscriptions(caller.id);
        if (!owned.length) return { data: [] };
        const rows = await db
          .select(withTeacher)
          .from(courses)
          .innerJoin(users, eq(users.id, courses.teacherId))
          .where(inArray(courses.id, owned.map((s) => s.courseId)))
          .orderBy(asc(courses.name), asc(courses.id));
        const byCourse = new Map(owned.map((s) => [s.courseId, s]));
        const batchesOf = await batchesOfCourse();
        return { data: rows.map((r) => presentMyCourse(r.course, r.teacher, byCourse.get(r.course.id) ?? null, batchesOf(r.course.id), now())) };
      }
      const query = db.select(withTeacher).from(courses).innerJoin(users, eq(users.id, courses.teacherId));
      const rows = await (caller.userType === 'admin' ? query : query.where(eq(courses.teacherId, caller.id))).orderBy(
        asc(courses.name),
        asc(courses.id),
      );
      const batchesOf = await batchesOfCourse();
      return { data: rows.map((r) => presentMyCourse(r.course, r.teacher, null, batchesOf(r.course.id), now())) };
    },

    /** One course: published ones for everyone, unpublished ones only for those who may edit them. */
    async course(caller: Caller, id: number): Promise<{ data: Course }> {
      const row = await findWithTeacher(id);
      if (!row) throw notFound(messages.courseNotFound);
      const owned = caller.userType === 'student' ? await activeSubscriptions(caller.id) : [];
      const enrolled = owned.some((s) => s.courseId === id);
      // An unpublished or archived course is its editors' and its students' only.
      const listed = row.course.published && !row.course.archivedAt;
      if (!listed && !enrolled && !canEdit(caller, row.course)) throw notFound(messages.courseNotFound);
      const batchesOf = await batchesOfCourse();
      return { data: presentCourse(row.course, row.teacher, enrolled, batchesOf(id), now()) };
    },

    async create(caller: Caller, input: z.output<typeof courseInput>): Promise<{ data: Course; message: string }> {
      const teacherId = await teacherFor(caller, input.teacher_id);
      checkBatchCount({ batchStartDates: input.batch_start_dates, weekdayTimes: input.weekday_times, weekendTimes: input.weekend_times });
      // The course and the batches its lists describe, with their sessions, appear together or not at all.
      const id = await db.transaction(async (tx) => {
        const [inserted] = await tx
        .insert(courses)
        .values({
          name: input.name,
          description: input.description,
          price: input.price,
          currency: input.currency,
          teacherId,
          skills: input.skills,
          durationWeeks: input.duration_weeks,
          batchStartDates: [...input.batch_start_dates].sort(),
          weekdayTimes: [...input.weekday_times].sort(),
          weekendTimes: [...input.weekend_times].sort(),
          imageUrl: input.image_url ?? null,
          published: input.published,
          ...(input.time_zone ? { timeZone: input.time_zone } : {}),
        })
        .returning();
        await openBatchesFromLists(tx as unknown as Database, inserted!);
        return inserted!.id;
      });
      allBatches.invalidate();
      const created = await findWithTeacher(id);
      return { data: presentCourse(created!.course, created!.teacher, false, (await batchesOfCourse())(id), now()), message: messages.courseCreated };
    },

    async update(caller: Caller, id: number, patch: z.output<typeof coursePatch>): Promise<{ data: Course; message: string }> {
      const existing = await findWithTeacher(id);
      if (!existing) throw notFound(messages.courseNotFound);
      if (!canEdit(caller, existing.course)) {
        // Someone else's unpublished course is not theirs to know about.
        if (!existing.course.published) throw notFound(messages.courseNotFound);
        throw forbidden();
      }
      const weekdayTimes = patch.weekday_times ?? existing.course.weekdayTimes;
      const weekendTimes = patch.weekend_times ?? existing.course.weekendTimes;
      if (weekdayTimes.length + weekendTimes.length === 0) {
        throw badRequest(messages.validationFailed, { weekday_times: ['Add at least one weekday or weekend time'] });
      }
      const changes: Partial<typeof courses.$inferInsert> = { updatedAt: now() };
      if (patch.name !== undefined) changes.name = patch.name;
      if (patch.description !== undefined) changes.description = patch.description;
      if (patch.price !== undefined) changes.price = patch.price;
      if (patch.currency !== undefined) changes.currency = patch.currency;
      if (patch.skills !== undefined) changes.skills = patch.skills;
      if (patch.duration_weeks !== undefined) changes.durationWeeks = patch.duration_weeks;
      if (patch.image_url !== undefined) changes.imageUrl = patch.image_url;
      if (patch.published !== undefined) changes.published = patch.published;
      if (patch.time_zone !== undefined) changes.timeZone = patch.time_zone;
      // The lists are a summary of the batches, so the batches change with them (sold ones never do);
      // the summary the batches leave is what the course then shows.
      await db.transaction(async (tx) => {
        await tx.update(courses).set(changes).where(eq(courses.id, id));
        await applyListChanges(tx as unknown as Database, existing.course, patch);
      });
      allBatches.invalidate();
      const updated = await findWithTeacher(id);
      return { data: presentCourse(updated!.course, updated!.teacher, false, (await batchesOfCourse())(id), now()), message: messages.courseUpdated };
    },

    /** A course that can be bought right now, for the payments module. */
    async purchasable(id: number): Promise<CourseRow | null> {
      const [row] = await db
        .select()
        .from(courses)
        .where(and(eq(courses.id, id), eq(courses.published, true), isNull(courses.archivedAt)));
      return row ?? null;
    },

    /** The course a session is scheduled in, when the caller may schedule sessions in it. */
    async taughtBy(caller: Caller, id: number): Promise<CourseRow> {
      const row = await findWithTeacher(id);
      if (!row) throw notFound(messages.courseNotFound);
      if (!canEdit(caller, row.course)) {
        if (!row.course.published) throw notFound(messages.courseNotFound);
        throw forbidden();
      }
      return row.course;
    },
  };
}

export type CoursesService = ReturnType<typeof createCoursesService>;
