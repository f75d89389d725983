// A student's progress in each course they bought: one rule, in one place, for the dashboard's skills
// and for earned certificates. The sessions that count are those of the student's batch, plus the
// course's open sessions (no batch), that have started by `now`, are not cancelled and fall within the
// batch's dates (in the course's time zone); a purchase made before batches existed counts all the
// course's sessions within its dates. A session is done when the student attended it (any attendance
// row) or watched at least `watchedShare` of a ready recording of it (de-duplicated watched seconds).
import { sql } from 'drizzle-orm';
import type { Database } from '../../db/client';

export const progressRules = {
  /** A recording counts as watched once this share of its length was watched (distinct seconds). */
  watchedShare: 0.5,
} as const;

export interface CourseProgress {
  courseId: number;
  /** The batch bought; null for a purchase made before batches existed. */
  batchId: number | null;
  /** YYYY-MM-DD, in the course's time zone. */
  batchStart: string;
  batchEnd: string;
  /** Sessions that count so far (started by `now`). */
  sessionsSoFar: number;
  /** Of those, attended or watched. */
  sessionsDone: number;
  /** sessionsDone / sessionsSoFar, 0 when no session has started yet. */
  share: number;
}

const rowsOf = <T>(result: unknown) => (result as { rows: T[] }).rows;

/** Progress per course the student bought (active subscriptions), ordered by course id; one statement. */
export async function courseProgress(
  db: Database,
  userId: number,
  { courseIds, now = new Date() }: { courseIds?: number[]; now?: Date } = {},
): Promise<CourseProgress[]> {
  if (courseIds && courseIds.length === 0) return [];
  const onlyCourses = courseIds
    ? sql`and s.course_id = any(${`{${courseIds.map((id) => Math.trunc(id)).join(',')}}`}::int[])`
    : sql``;
  const now_ = sql`${now.toISOString()}::timestamptz`;
  const withinBatch = sql`(cs.starts_at at time zone c.time_zone)::date between coalesce(b.start_date, s.start_date) and coalesce(b.end_date, s.end_date)`;
  const result = await db.execute(sql`
    select s.course_id, s.batch_id,
      coalesce(b.start_date, s.start_date)::text as batch_start,
      coalesce(b.end_date, s.end_date)::text as batch_end,
      coalesce(p.so_far, 0)::int as so_far, coalesce(p.done, 0)::int as done
    from subscriptions s
    join courses c on c.id = s.course_id
    left join batches b on b.id = s.batch_id
    left join lateral (
      select count(*) as so_far,
        count(*) filter (where
          -- The student's attended sessions read once (a hashed subplan through attendance_user_idx),
          -- not probed per session: without statistics (PGlite never analyzes) the probe also read the
          -- student's whole attendance per session (10,000 rows × 5,000 sessions took 20 s).
          cs.id in (select a.session_id from attendance a where a.user_id = ${userId})
          or exists (
            select 1 from recordings r
            join recording_views v on v.recording_id = r.id and v.user_id = s.user_id
            where r.session_id = cs.id and r.status = 'ready' and r.duration_seconds > 0
              and v.watched_seconds >= ${progressRules.watchedShare} * r.duration_seconds)) as done
      from (
        -- The batch's sessions (class_sessions_batch_idx), then the course's sessions of no batch, and
        -- for a purchase made before batches the course's batch sessions too (a one-time filter skips
        -- that read for everyone else), within the batch's dates in the course's zone
        -- (class_sessions_course_idx): three disjoint sets. OFFSET 0 keeps the conditions below out of
        -- them, where without statistics (PGlite) they drew the planner to class_sessions_starts_idx,
        -- every session started so far read once per course bought (105,000 rows for 20 courses).
        select cs.id, cs.starts_at, cs.cancelled_at from class_sessions cs
        where cs.batch_id = s.batch_id and cs.course_id = s.course_id
        union all
        select cs.id, cs.starts_at, cs.cancelled_at from class_sessions cs
        where cs.course_id = s.course_id and cs.batch_id is null and ${withinBatch}
        union all
        select cs.id, cs.starts_at, cs.cancelled_at from class_sessions cs
        where s.batch_id is null and cs.course_id = s.course_id and cs.batch_id is not null and ${withinBatch}
        offset 0
      ) cs
      where cs.cancelled_at is null and cs.starts_at <= ${now_}
    ) p on true
    where s.user_id = ${userId} and s.status = 'active' ${onlyCourses}
    order by s.course_id`);
  return rowsOf<{ course_id: number; batch_id: number | null; batch_start: string; batch_end: string; so_far: number; done: number }>(
    result,
  ).map((row) => ({
    courseId: Number(row.course_id),
    batchId: row.batch_id === null ? null : Number(row.batch_id),
    batchStart: row.batch_start,
    batchEnd: row.batch_end,
    sessionsSoFar: Number(row.so_far),
    sessionsDone: Number(row.done),
    share: Number(row.so_far) > 0 ? Number(row.done) / Number(row.so_far) : 0,
  }));
}
