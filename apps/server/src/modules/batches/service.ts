// The batch rules: which batches a course offers and to whom, how a teacher opens, resizes and removes
// them, and how the course's own date and time lists (the contract's course fields) become batches.
import { subject } from '@casl/ability';
import { and, eq, inArray, lte } from 'drizzle-orm';
import type { z } from 'zod';
import type { Batch, batchInput, batchPatch } from '@mooz/contract/batches';
import type { CoursePatch } from '@mooz/contract/courses';
import { limits } from '@mooz/contract/limits';
import { messages } from '@mooz/contract/messages';
import type { Database } from '../../db/client';
import { batches, courses, subscriptions } from '../../db/schema/index';
import { badRequest, conflict, forbidden, invalidField, notFound, type FieldErrors } from '../../http/errors';
import type { AuthUser } from '../../http/authenticate';
import { auditIfAdmin } from '../admin';
import { addDays, batchStartOnOrAfter, isoWeekday, weeklyMeetings, zonedInstant, type BatchTimes } from './timetable';
import { batchesOf, batchIdentity, findBatch, openBatch, removeBatch, summariseBatches, type BatchRow, type NewBatch } from './store';

type Caller = Pick<AuthUser, 'id' | 'userType' | 'ability'>;
type CourseRow = typeof courses.$inferSelect;
type Lists = Pick<CourseRow, 'batchStartDates' | 'weekdayTimes' | 'weekendTimes'>;

/** The local day in a zone at an instant, as YYYY-MM-DD. */
const dayIn = (zone: string, at: Date) => new Intl.DateTimeFormat('en-CA', { timeZone: zone }).format(at);

/** Monday of the ISO week of `date`. */
const mondayOf = (date: string) => addDays(date, 1 - isoWeekday(date));

/** A course's date list names weeks: a weekday batch starts on that week's Monday, a weekend one on its Saturday. */
export const startInWeekOf = (kind: BatchRow['kind'], date: string) => addDays(mondayOf(date), kind === 'weekdays' ? 0 : 5);

export function presentBatch(row: BatchRow, zone: string, now: Date): Batch {
  const meetings = weeklyMeetings(row as BatchTimes, zone);
  const firstStart = meetings[0] ? new Date(meetings[0].first_starts_at) : zonedInstant(row.startDate, '00:00', zone);
  const seatsLeft = Math.max(row.seats - row.seatsTaken, 0);
  return {
    id: row.id,
    course_id: row.courseId,
    kind: row.kind,
    start_date: row.startDate,
    end_date: row.endDate,
    time: row.time,
    saturday_time: row.saturdayTime,
    sunday_time: row.sundayTime,
    time_zone: zone,
    session_minutes: row.sessionMinutes,
    capacity: row.seats,
    seats_left: seatsLeft,
    sold_out: seatsLeft === 0,
    started: now >= firstStart,
    meetings,
  };
}

/** The batches the course's date and time lists describe: every listed week, at every listed time. */
function batchesFromLists(lists: Lists): Omit<NewBatch, 'seats' | 'sessionMinutes'>[] {
  return lists.batchStartDates.flatMap((date) => [
    ...lists.weekdayTimes.map((time) => ({
      kind: 'weekdays' as const,
      startDate: startInWeekOf('weekdays', date),
      time,
      saturdayTime: null,
      sundayTime: null,
    })),
    // From the lists alone a weekend batch meets at one time on both days; a teacher who wants two
    // times opens that batch explicitly.
    ...lists.weekendTimes.map((time) => ({
      kind: 'weekends' as const,
      startDate: startInWeekOf('weekends', date),
      time: null,
      saturdayTime: time,
      sundayTime: time,
    })),
  ]);
}

/** Refuses lists that would open more batches than a course may have, naming the dates field. */
export function checkBatchCount(lists: Lists): void {
  const count = new Set(batchesFromLists(lists).map((b) => batchIdentity(b))).size;
  if (count > limits.courseBatchesMax) {
    throw invalidField('batch_start_dates', `These weeks and times make ${count} batches; a course has at most ${limits.courseBatchesMax}`);
  }
}

const defaults = { seats: limits.defaultBatchSeats, sessionMinutes: limits.defaultBatchSessionMinutes };

/** The batch a new course's lists describe, each opened with its sessions. */
export async function openBatchesFromLists(db: Database, course: CourseRow): Promise<void> {
  for (const wanted of batchesFromLists(course)) await openBatch(db, course, { ...wanted, ...defaults });
  await summariseBatches(db, course.id);
}

/**
 * A PATCH of the course's lists, duration or time zone, as changes to its batches: weeks or times taken
 * off the lists close the unsold batches they described; weeks or times added open batches for them;
 * a new duration or zone re-opens the unsold batches with their new timetable. Sold batches never change.
 */
export async function applyListChanges(db: Database, before: CourseRow, patch: CoursePatch): Promise<void> {
  const after: Lists = {
    batchStartDates: patch.batch_start_dates ?? before.batchStartDates,
    weekdayTimes: patch.weekday_times ?? before.weekdayTimes,
    weekendTimes: patch.weekend_times ?? before.weekendTimes,
  };
  checkBatchCount(after);
  const course = { ...before, durationWeeks: patch.duration_weeks ?? before.durationWeeks, timeZone: patch.time_zone ?? before.timeZone };
  const timetableChanged = course.durationWeeks !== before.durationWeeks || course.timeZone !== before.timeZone;
  const listed = (lists: Lists) => new Set(batchesFromLists(lists).map((b) => batchIdentity(b)));
  const wasListed = listed(before);
  const nowListed = listed(after);
  for (const row of await batchesOf(db, before.id)) {
    const dropped = wasListed.has(batchIdentity(row)) && !nowListed.has(batchIdentity(row));
    if (row.seatsTaken > 0 || !(dropped || timetableChanged)) continue;
    if ((await closeUnsold(db, row)) && !dropped) await openBatch(db, course, row);
  }
  const kept = new Set((await batchesOf(db, before.id)).map((b) => batchIdentity(b)));
  for (const wanted of batchesFromLists(after)) {
    const identity = batchIdentity(wanted);
    if (!kept.has(identity) && !wasListed.has(identity)) await openBatch(db, course, { ...wanted, ...defaults });
  }
  await summariseBatches(db, before.id);
}

/** Removes a batch nobody paid for, with its sessions and the carts left open on it. */
async function closeUnsold(db: Database, row: BatchRow): Promise<boolean> {
  const paid = await db
    .select({ id: subscriptions.id })
    .from(subscriptions)
    .where(and(eq(subscriptions.batchId, row.id), inArray(subscriptions.status, ['active', 'refunded'])))
    .limit(1);
  if (paid.length) return false;
  await db.delete(subscriptions).where(and(eq(subscriptions.batchId, row.id), eq(subscriptions.status, 'pending')));
  return removeBatch(db, row.id);
}

/** The checks of a new batch, every wrong field named at once. */
function checkNewBatch(input: z.output<typeof batchInput>, course: Pick<CourseRow, 'durationWeeks' | 'timeZone'>, now: Date): NewBatch {
  const errors: FieldErrors = {};
  const problem = (field: string, text: string) => void (errors[field] ??= []).push(text);
  if (batchStartOnOrAfter(input.kind, input.start_date) !== input.start_date) {
    problem('start_date', input.kind === 'weekdays' ? 'Weekday batches start on a Monday' : 'Weekend batches start on a Saturday');
  } else if (input.start_date < dayIn(course.timeZone, now)) problem('start_date', 'Choose a date from today on');
  if (input.kind === 'weekdays') {
    if (input.time === undefined) problem('time', 'Required');
    if (input.saturday_time !== undefined) problem('saturday_time', 'Only for weekend batches');
    if (input.sunday_time !== undefined) problem('sunday_time', 'Only for weekend batches');
  } else {
    if (input.saturday_time === undefined) problem('saturday_time', 'Required');
    if (input.sunday_time === undefined) problem('sunday_time', 'Required');
    if (input.time !== undefined) problem('time', 'Only for weekday batches');
  }
  if (Object.keys(errors).length) throw badRequest(messages.validationFailed, errors);
  return {
    kind: input.kind,
    startDate: input.start_date,
    time: input.kind === 'weekdays' ? input.time! : null,
    saturdayTime: input.kind === 'weekends' ? input.saturday_time! : null,
    sundayTime: input.kind === 'weekends' ? input.sunday_time! : null,
    seats: input.capacity,
    sessionMinutes: input.session_minutes,
  };
}

export function createBatchesService(deps: { db: Database; now?: () => Date }) {
  const { db } = deps;
  const now = deps.now ?? (() => new Date());

  /** The course, when the caller may change it; someone else's unpublished course is not theirs to know. */
  async function editableCourse(caller: Caller, courseId: number): Promise<CourseRow> {
    const [row] = await db.select().from(courses).where(eq(courses.id, courseId));
    if (!row) throw notFound(messages.courseNotFound);
    if (!caller.ability.can('update', subject('Course', { teacher_id: row.teacherId } as Record<string, unknown>))) {
      if (!row.published) throw notFound(messages.courseNotFound);
      throw forbidden();
    }
    return row;
  }

  async function batchOf(caller: Caller, courseId: number, batchId: number) {
    const course = await editableCourse(caller, courseId);
    const row = await findBatch(db, courseId, batchId);
    if (!row) throw notFound(messages.batchNotFound);
    return { course, row };
  }

  return {
    async create(caller: Caller, courseId: number, input: z.output<typeof batchInput>): Promise<{ data: Batch; message: string }> {
      const course = await editableCourse(caller, courseId);
      const wanted = checkNewBatch(input, course, now());
      if ((await batchesOf(db, course.id)).length >= limits.courseBatchesMax) {
        throw conflict(`This course has ${limits.courseBatchesMax} batches, the most it can have: remove one first`);
      }
      const row = await db.transaction(async (tx) => {
        const opened = await openBatch(tx as unknown as Database, course, wanted);
        if (opened) {
          await summariseBatches(tx as unknown as Database, course.id);
          await auditIfAdmin(tx, caller, 'batch.open', { type: 'batch', id: opened.id }, { course_id: course.id, kind: opened.kind, start_date: opened.startDate });
        }
        return opened;
      });
      if (!row) throw conflict(messages.batchExists);
      return { data: presentBatch(row, course.timeZone, now()), message: messages.batchOpened };
    },

    async update(caller: Caller, courseId: number, batchId: number, patch: z.output<typeof batchPatch>): Promise<{ data: Batch; message: string }> {
      const { course, row } = await batchOf(caller, courseId, batchId);
      if (patch.capacity < row.seatsTaken) {
        throw badRequest(messages.validationFailed, { capacity: [`${row.seatsTaken} seats are sold already`] });
      }
      const updated = await db.transaction(async (tx) => {
        const [changed] = await tx
          .update(batches)
          .set({ seats: patch.capacity })
          .where(and(eq(batches.id, row.id), lte(batches.seatsTaken, patch.capacity)))
          .returning();
        if (changed) await auditIfAdmin(tx, caller, 'batch.resize', { type: 'batch', id: changed.id }, { from: row.seats, to: patch.capacity });
        return changed;
      });
      if (!updated) throw badRequest(messages.validationFailed, { capacity: ['More seats were sold meanwhile; try again'] });
      return { data: presentBatch(updated, course.timeZone, now()), message: messages.batchUpdated };
    },

    async remove(caller: Caller, courseId: number, batchId: number): Promise<{ data: null; message: string }> {
      const { row } = await batchOf(caller, courseId, batchId);
      const removed = await db.transaction(async (tx) => {
        const closed = await closeUnsold(tx as unknown as Database, row);
        if (closed) {
          await summariseBatches(tx as unknown as Database, courseId);
          await auditIfAdmin(tx, caller, 'batch.remove', { type: 'batch', id: row.id }, { course_id: courseId, kind: row.kind, start_date: row.startDate });
        }
        return closed;
      });
      if (!removed) throw conflict(messages.batchSold);
      return { data: null, message: messages.batchRemoved };
    },
  };
}

export type BatchesService = ReturnType<typeof createBatchesService>;
