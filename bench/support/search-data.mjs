// The search benchmark's data (bench/search.mjs): people, 10,000 courses, 100,000 sessions and
// purchases, written by a few set-based statements (generate_series) through the project's database
// handle. Names come from small vocabularies, so each topic has about 1% of the courses.
import { sql } from 'drizzle-orm';
import { createActiveUser } from '../../apps/server/src/modules/auth/users.ts';

export const benchPassword = 'bench-search-password';

const topics = [
  'Python', 'JavaScript', 'TypeScript', 'Rust', 'Go', 'Java', 'Kotlin', 'Swift', 'Haskell', 'Elixir',
  'Ruby', 'PHP', 'SQL', 'PostgreSQL', 'Kubernetes', 'Docker', 'Terraform', 'Linux', 'Networking', 'Security',
  'Cryptography', 'Machine Learning', 'Deep Learning', 'Statistics', 'Calculus', 'Algebra', 'Geometry', 'Physics', 'Chemistry', 'Biology',
  'Astronomy', 'Photography', 'Painting', 'Drawing', 'Sculpture', 'Guitar', 'Piano', 'Singing', 'Music Theory', 'Spanish',
  'French', 'German', 'Portuguese', 'Japanese', 'Mandarin', 'Arabic', 'Hindi', 'Creative Writing', 'Poetry', 'Public Speaking',
  'Negotiation', 'Marketing', 'Accounting', 'Finance', 'Economics', 'Philosophy', 'History', 'Psychology', 'Sociology', 'Cooking',
  'Baking', 'Nutrition', 'Yoga', 'Pilates', 'Running', 'Chess', 'Graphic Design', 'Typography', 'Illustration', 'Animation',
  'Film Editing', 'Video Production', 'Podcasting', 'Journalism', 'Law', 'Project Management', 'Leadership', 'Excel', 'Data Analysis', 'Data Engineering',
  'React', 'Vue', 'Angular', 'Node.js', 'Django', 'Flask', 'Spring', 'Rails', 'Android', 'iOS',
  'Unity', 'Unreal', 'Blender', 'Figma', 'Robotics', 'Electronics', 'Arduino', 'Gardening', 'Woodworking', 'Calligraphy',
];
const levels = ['Introduction to', 'Practical', 'Advanced', 'Mastering', 'Fundamentals of', 'Hands-on', 'Modern', 'Applied'];
const tails = ['', ' for Beginners', ' in Practice', ' for Professionals', ' Bootcamp', ' Workshop', ' Masterclass', ' Essentials', ' Deep Dive', ' Lab'];
const lessons = [
  'Getting started', 'Core ideas', 'Tools of the trade', 'First project', 'Common mistakes', 'Working with data', 'Testing', 'Debugging',
  'Performance', 'Patterns', 'Style and review', 'Going further', 'Case study', 'Guest lecture', 'Questions and answers', 'Pair practice',
  'Mid-course review', 'Final project kick-off', 'Final project clinic', 'Demo day',
];
const firstNames = ['Ada', 'Alan', 'Grace', 'Linus', 'Maria', 'Kofi', 'Aiko', 'Ravi', 'Ines', 'Omar', 'Lena', 'Tariq', 'Sofia', 'Jonas', 'Priya', 'Mateo', 'Yuki', 'Amara', 'Nils', 'Chen'];
const lastNames = ['Lovelace', 'Turing', 'Hopper', 'Torvalds', 'Santos', 'Mensah', 'Tanaka', 'Sharma', 'Costa', 'Haddad', 'Berg', 'Aziz', 'Rossi', 'Weber', 'Iyer', 'Lopez', 'Sato', 'Okafor', 'Lind', 'Wang'];
const textArray = (list) => sql`array[${sql.join(list.map((item) => sql`${item}`), sql`, `)}]::text[]`;

// Search's GIN indexes take each row at once (fastupdate off, migration 0007), which makes a bulk load
// of 100,000 titles take minutes (PGlite) instead of seconds: for the load only they gather rows in a
// pending list, merged into the index at the end, as a bulk import would do.
const searchIndexes = ['users_name_trgm_idx', 'courses_name_trgm_idx', 'courses_search_idx', 'class_sessions_title_trgm_idx'];

/** The benchmark's people, courses, sessions and purchases, written by a few set-based statements. */
export async function seed(db, options) {
  for (const index of searchIndexes) await db.execute(sql.raw(`alter index ${index} set (fastupdate = on)`));
  try {
    return await written(db, options);
  } finally {
    for (const index of searchIndexes) {
      await db.execute(sql.raw(`alter index ${index} set (fastupdate = off)`));
      await db.execute(sql.raw(`select gin_clean_pending_list('${index}')`));
    }
    await db.execute(sql`analyze`);
  }
}

async function written(db, { courses, sessions }) {
  const made = {};
  for (const [key, userType] of [['teacher', 'teacher'], ['student', 'student'], ['trial', 'student']]) {
    made[key] = await createActiveUser(
      db,
      { email: `bench-${key}@mooz.local`, password: benchPassword, first_name: 'Bench', last_name: key, user_type: userType },
      { trialDays: 7 },
    );
  }
  await db.execute(sql`update users set trial_ends_at = now() - interval '1 day' where id = ${made.student.id}`);
  await db.execute(sql`
    insert into users (email, password_hash, first_name, last_name, user_type, is_active)
    select 'bench-' || kind || g || '@mooz.local', 'not a password hash', (${textArray(firstNames)})[1 + g % 20],
      (${textArray(lastNames)})[1 + (g / 20) % 20], kind, true
    from generate_series(1, 5000) g, lateral (select case when g <= 99 then 'teacher' else 'student' end as kind) k`);
  await db.execute(sql`
    with t as (select array_agg(id order by id) as ids from users where user_type = 'teacher')
    insert into courses (name, description, price, teacher_id, skills, duration_weeks, published, archived_at)
    select name, 'A ' || (4 + g % 12) || '-week course: ' || lower(topic) || ' from ' || lower(l1) || ' to ' || lower(l2) || ', with hands-on projects.',
      100000 + (g % 50) * 1000, t.ids[1 + g % cardinality(t.ids)], jsonb_build_array(topic, l1), 4 + g % 12,
      g % 25 <> 0, case when g % 97 = 0 then now() end
    from generate_series(1, ${courses}) g, t,
      lateral (select (${textArray(topics)})[1 + (g / 8) % 100] as topic,
        (${textArray(lessons)})[1 + g % 20] as l1, (${textArray(lessons)})[1 + (g / 3) % 20] as l2) words,
      lateral (select (${textArray(levels)})[1 + g % 8] || ' ' || topic || (${textArray(tails)})[1 + (g / 800) % 10] as name) named`);
  await db.execute(sql`
    with c as (select array_agg(id order by id) as ids from courses)
    insert into class_sessions (course_id, title, starts_at, ends_at, room_id, cancelled_at)
    select c.ids[1 + g % cardinality(c.ids)], (${textArray(lessons)})[1 + (g / 7) % 20] || ' (week ' || (1 + g % 12) || ')',
      now() + (g % 200 - 50) * interval '1 day', now() + (g % 200 - 50) * interval '1 day' + interval '1 hour',
      'bench-room-' || g, case when g % 50 = 0 then now() end
    from generate_series(1, ${sessions}) g, c`);
  // Every other student bought two courses; the benchmark's student three Python courses.
  await db.execute(sql`
    with s as (select array_agg(id order by id) as ids from users where user_type = 'student' and email like 'bench-student%'),
      c as (select array_agg(id order by id) as ids from courses)
    insert into subscriptions (id, user_id, course_id, batch, start_date, end_date, status, amount, currency, order_id)
    select gen_random_uuid(), s.ids[1 + g % cardinality(s.ids)], c.ids[1 + (g * 7919) % cardinality(c.ids)], 'weekdays',
      current_date, current_date + 28, 'active', 100000, 'INR', 'bench-order-' || g
    from generate_series(1, 2 * 4900) g, s, c`);
  await db.execute(sql`
    insert into subscriptions (id, user_id, course_id, batch, start_date, end_date, status, amount, currency, order_id)
    select gen_random_uuid(), ${made.student.id}, id, 'weekdays', current_date, current_date + 28, 'active', 100000, 'INR', 'bench-own-' || id
    from (select id from courses where name like '%Python%' and published order by id limit 3) p`);
  return made;
}
