// The dashboard benchmark's data (bench/dashboard.mjs): the demo data, then a heavy learner, written
// by a few set-based statements (generate_series) through the project's database handle.
import { sql } from 'drizzle-orm';
import { demoEmails, seedDemo } from '../../apps/server/src/seed.ts';

export const password = 'mooz-demo-123';

/**
 * The demo data, then a heavy learner: the demo learner buys 20 more courses of the demo teacher (a
 * batch each, two years long and still running), whose `rows / 2` classes they attended twice each.
 */
export async function seed(db, rows) {
  await seedDemo(db, { password, trialDays: 7 });
  const ids = async (query) => (await db.execute(query)).rows;
  const [{ id: learner }] = await ids(sql`select id from users where email = ${demoEmails.learner}`);
  const [{ id: teacher }] = await ids(sql`select id from users where email = ${demoEmails.teacher}`);
  const sessions = Math.ceil(rows / 2);
  // The title index takes each row at once (fastupdate off): for the load only, a pending list.
  await db.execute(sql`alter index class_sessions_title_trgm_idx set (fastupdate = on)`);
  await db.execute(sql`
    insert into courses (name, description, price, currency, teacher_id, skills, duration_weeks, batch_start_dates, weekday_times, weekend_times, archived_at)
    select 'Bench course ' || g, 'A course of the dashboard benchmark.', 100000, 'INR', ${teacher}::int,
      jsonb_build_array('Skill ' || g, 'Skill ' || (g % 7), 'Shared skill'), 104, '[]'::jsonb, '["10:00"]'::jsonb, '[]'::jsonb, now()
    from generate_series(1, 20) g`);
  await db.execute(sql`
    insert into batches (course_id, kind, start_date, end_date, time, capacity, seats_taken)
    select id, 'weekdays', (now() - interval '730 days')::date, (now() + interval '30 days')::date, '10:00', 9, 1
    from courses where name like 'Bench course %'`);
  await db.execute(sql`
    insert into subscriptions (id, user_id, course_id, batch, start_date, end_date, time, batch_id, status, amount, currency, order_id, activated_at)
    select gen_random_uuid(), ${learner}::int, b.course_id, 'weekdays', b.start_date, b.end_date, '10:00', b.id, 'active', 100000, 'INR',
      'order_bench_' || b.id, now() - interval '731 days'
    from batches b join courses c on c.id = b.course_id where c.name like 'Bench course %'`);
  // Classes every 3.5 hours back from an hour ago, round the 20 courses.
  await db.execute(sql`
    with bench as (select b.course_id, b.id as batch_id, row_number() over (order by b.course_id) - 1 as k
                   from batches b join courses c on c.id = b.course_id where c.name like 'Bench course %')
    insert into class_sessions (course_id, batch_id, title, starts_at, ends_at, room_id)
    select bench.course_id, bench.batch_id, 'Bench class ' || g,
      now() - interval '1 hour' - g * interval '210 minutes', now() - interval '1 hour' - g * interval '210 minutes' + interval '1 hour',
      gen_random_uuid()::text
    from generate_series(1, ${sessions}) g join bench on bench.k = g % 20`);
  await db.execute(sql`
    insert into attendance (session_id, user_id, joined_at, left_at)
    select s.id, ${learner}::int, s.starts_at, s.starts_at + interval '25 minutes' from class_sessions s where s.title like 'Bench class %'
    union all
    select s.id, ${learner}::int, s.starts_at + interval '30 minutes', case when s.id % 100 = 0 then null else s.starts_at + interval '55 minutes' end
    from class_sessions s where s.title like 'Bench class %'`);
  await db.execute(sql`alter index class_sessions_title_trgm_idx set (fastupdate = off)`);
  await db.execute(sql`
    insert into recordings (course_id, room_id, title, recorded_by, source, status, duration_seconds)
    select id, 'bench-room', 'Bench recording', ${teacher}::int, 'upload', 'processing', 3600 from courses where name = 'Bench course 1'`);
  await db.execute(sql`
    insert into watch_log (user_id, recording_id, course_id, watched_at, seconds)
    select ${learner}::int, r.id, r.course_id, now() - g * interval '8 hours', 300
    from generate_series(1, 2000) g cross join (select id, course_id from recordings where title = 'Bench recording') r`);
  await db.execute(sql`
    insert into assignments (course_id, title, due_at, created_by)
    select c.id, 'Bench assignment ' || g, now() + g * interval '1 day', ${teacher}
    from courses c cross join generate_series(1, 3) g where c.name like 'Bench course %'`);
  await db.execute(sql`
    insert into assignment_submissions (assignment_id, user_id, text)
    select id, ${learner}::int, 'Done' from assignments where title in ('Bench assignment 1', 'Bench assignment 2')`);
  const [{ n }] = await ids(sql`select count(*)::int as n from attendance where user_id = ${learner}::int`);
  return n;
}

