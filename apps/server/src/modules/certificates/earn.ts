// Earned certificates: a student whose batch has ended (its last day is before today in the course's
// time zone) and who attended or watched at least `certificateRules.earnedShare` of its sessions
// (learning/progress.ts, the one rule) gets the course's certificate. Idempotent: one certificate per
// student and course (unique index; ON CONFLICT DO NOTHING), so the dashboard, the certificates list
// and the periodic pass may all call it, at once or again.
import { sql, type AnyColumn, type SQL } from 'drizzle-orm';
import { certificateRules } from '@mooz/contract/certificates';
import type { Database } from '../../db/client';
import { courseProgress, type CourseProgress } from '../learning';
import type { NotificationsDoor } from '../notifications';
import { certificateId } from './ids';

const rowsOf = <T>(result: unknown) => (result as { rows: T[] }).rows;

/**
 * The one rule of "a batch has ended", in SQL: its last day is before today in the course's time zone.
 * Earned certificates wait for it; one by hand needs it too (contract: mayAwardEarly).
 */
export const batchHasEnded = (endDate: SQL | AnyColumn, timeZone: SQL | AnyColumn | string, now: Date): SQL =>
  sql`(${endDate} < (${now.toISOString()}::timestamptz at time zone ${timeZone})::date)`;

interface Candidate {
  course_id: number;
  batch_id: number | null;
  student_name: string;
  course_name: string;
  teacher_name: string;
  start_date: string;
  end_date: string;
}

/** The student's courses whose batch has ended and that have no certificate yet (one statement). */
async function candidates(db: Database, userId: number, now: Date): Promise<Candidate[]> {
  const result = await db.execute(sql`
    select s.course_id, s.batch_id,
      u.first_name || ' ' || u.last_name as student_name, c.name as course_name,
      t.first_name || ' ' || t.last_name as teacher_name,
      coalesce(b.start_date, s.start_date)::text as start_date, coalesce(b.end_date, s.end_date)::text as end_date
    from subscriptions s
    join users u on u.id = s.user_id
    join courses c on c.id = s.course_id
    join users t on t.id = c.teacher_id
    left join batches b on b.id = s.batch_id
    where s.user_id = ${userId} and s.status = 'active'
      and ${batchHasEnded(sql`coalesce(b.end_date, s.end_date)`, sql`c.time_zone`, now)}
      and not exists (select 1 from certificates x where x.user_id = s.user_id and x.course_id = s.course_id)`);
  return rowsOf<Candidate>(result);
}

/**
 * Tells a student of a certificate just issued, in the transaction that issued it, and starts its
 * delivery once that transaction committed (the notifications module's door).
 */
export type CertificateTold = Pick<NotificationsDoor, 'certificateIssued' | 'kick'>;

/**
 * Issues the certificates the student has earned and not yet received; returns the new ids. `known`:
 * the student's progress in all their courses at `now`, when the caller has it already (the dashboard).
 * `told`: the student hears of each, once (only the insert that issued it tells).
 */
export async function earnDueCertificates(
  db: Database,
  userId: number,
  now: Date = new Date(),
  known?: CourseProgress[],
  told?: CertificateTold,
): Promise<string[]> {
  const due = await candidates(db, userId, now);
  if (due.length === 0) return [];
  const progress = known ?? (await courseProgress(db, userId, { courseIds: due.map((c) => Number(c.course_id)), now }));
  const issued: string[] = [];
  for (const course of due) {
    const p = progress.find((row) => row.courseId === Number(course.course_id));
    if (!p || p.sessionsSoFar === 0 || p.share < certificateRules.earnedShare) continue;
    const insert = (executor: Pick<Database, 'execute'>) => executor.execute(sql`
      insert into certificates (id, user_id, course_id, batch_id, kind, student_name, course_name, teacher_name,
        start_date, end_date, attendance_share, issued_at)
      values (${certificateId()}, ${userId}, ${Number(course.course_id)}, ${course.batch_id === null ? null : Number(course.batch_id)}, 'earned',
        ${course.student_name}, ${course.course_name}, ${course.teacher_name}, ${course.start_date}::date, ${course.end_date}::date,
        ${p.share}, ${now.toISOString()}::timestamptz)
      on conflict (user_id, course_id) do nothing
      returning id`);
    const ids = told
      ? await db.transaction(async (tx) => {
          const fresh = rowsOf<{ id: string }>(await insert(tx)).map((row) => row.id);
          for (const id of fresh) await told.certificateIssued(tx, { id, userId, courseId: Number(course.course_id) });
          return fresh;
        })
      : rowsOf<{ id: string }>(await insert(db)).map((row) => row.id);
    if (told && ids.length) told.kick();
    issued.push(...ids);
  }
  return issued;
}

/** How long after a batch's end the periodic pass still looks at it (a late viewer of the recordings may still earn it). */
const periodicLookBackDays = 30;

/**
 * The periodic pass: every student with a batch ended in the last `periodicLookBackDays` days and no
 * certificate of that course yet, so certificates appear without anyone opening a dashboard. (The
 * dashboard and the certificates list still look at every ended batch of their caller.) Returns how
 * many were issued.
 */
export async function earnAllDueCertificates(db: Database, now: Date = new Date(), told?: CertificateTold): Promise<number> {
  const result = await db.execute(sql`
    select distinct s.user_id from subscriptions s
    join courses c on c.id = s.course_id
    left join batches b on b.id = s.batch_id
    where s.status = 'active'
      and ${batchHasEnded(sql`coalesce(b.end_date, s.end_date)`, sql`c.time_zone`, now)}
      and coalesce(b.end_date, s.end_date) >= (${now.toISOString()}::timestamptz at time zone c.time_zone)::date - ${periodicLookBackDays}::int
      and not exists (select 1 from certificates x where x.user_id = s.user_id and x.course_id = s.course_id)
    order by s.user_id`);
  let issued = 0;
  for (const row of rowsOf<{ user_id: number }>(result)) issued += (await earnDueCertificates(db, Number(row.user_id), now, undefined, told)).length;
  return issued;
}
