// Demo data (SEED_DEMO=1): the three demo accounts, courses taught by the demo teacher with future
// batch dates and times, and a few scheduled sessions. Only ever into an empty database.
import { randomUUID } from 'node:crypto';
import { count } from 'drizzle-orm';
import type { Database } from './db/client';
import { classSessions, courses, users } from './db/schema/index';
import { hashPassword } from './infrastructure/passwords';
import { trialEndsAt } from './modules/auth/trial';
import { openBatchesFromLists } from './modules/batches/service';

const DAY = 86_400_000;
const addWeeks = (date: string, weeks: number) => new Date(Date.parse(`${date}T00:00:00Z`) + weeks * 7 * DAY).toISOString().slice(0, 10);

/** Mondays from the coming week on, as YYYY-MM-DD: courses start on a Monday. */
function upcomingMondays(from: Date, howMany: number): string[] {
  const d = new Date(Date.UTC(from.getUTCFullYear(), from.getUTCMonth(), from.getUTCDate()));
  d.setUTCDate(d.getUTCDate() + ((8 - d.getUTCDay()) % 7 || 7));
  return Array.from({ length: howMany }, (_, i) => new Date(d.getTime() + i * 14 * DAY).toISOString().slice(0, 10));
}

export const demoEmails = {
  admin: 'admin@mooz.local',
  teacher: 'teacher@mooz.local',
  student: 'student@mooz.local',
} as const;

export async function seedDemo(db: Database, options: { password: string; trialDays: number; now?: Date }) {
  const now = options.now ?? new Date();
  const [row] = await db.select({ n: count() }).from(users);
  if ((row?.n ?? 0) > 0) return { seeded: false as const };

  const passwordHash = await hashPassword(options.password);
  const verified = { passwordHash, isActive: true, emailVerifiedAt: now };
  const [, teacher] = await db
    .insert(users)
    .values([
      { ...verified, email: demoEmails.admin, firstName: 'Ada', lastName: 'Admin', userType: 'admin' as const },
      { ...verified, email: demoEmails.teacher, firstName: 'Tara', lastName: 'Teacher', userType: 'teacher' as const },
      {
        ...verified,
        email: demoEmails.student,
        firstName: 'Sam',
        lastName: 'Student',
        userType: 'student' as const,
        trialEndsAt: trialEndsAt(now, options.trialDays),
      },
    ])
    .returning({ id: users.id });

  // Two intakes a month apart: each opens its weekday and weekend batches, with their sessions.
  const firstMonday = upcomingMondays(now, 1)[0]!;
  const batchStartDates = [firstMonday, addWeeks(firstMonday, 4)];
  const catalogue = [
    {
      name: 'Full-Stack Web Development',
      description: 'Build and ship modern web apps with TypeScript, React and Node, from the first page to production.',
      price: 1_499_900,
      skills: ['TypeScript', 'React', 'Node.js', 'PostgreSQL'],
      durationWeeks: 12,
      weekdayTimes: ['09:00', '18:30'],
      weekendTimes: ['10:00'],
    },
    {
      name: 'Data Science with Python',
      description: 'Clean, explore and model real data with pandas, scikit-learn and clear visual stories.',
      price: 1_299_900,
      skills: ['Python', 'pandas', 'Statistics', 'Machine learning'],
      durationWeeks: 10,
      weekdayTimes: ['07:30'],
      weekendTimes: ['11:00'],
    },
    {
      name: 'UI/UX Design Foundations',
      description: 'Research, wireframe and prototype interfaces people love, with accessibility built in.',
      price: 899_900,
      skills: ['Figma', 'User research', 'Accessibility', 'Prototyping'],
      durationWeeks: 6,
      weekdayTimes: ['17:00'],
      weekendTimes: ['09:30'],
    },
  ];
  const created = await db
    .insert(courses)
    .values(catalogue.map((c) => ({ ...c, currency: 'INR', teacherId: teacher!.id, batchStartDates, published: true })))
    .returning();
  for (const course of created) await openBatchesFromLists(db, course);

  const hour = 3_600_000;
  const startOfNextHour = Math.ceil(now.getTime() / hour) * hour;
  const startOfThisHour = Math.floor(now.getTime() / hour) * hour;
  await db.insert(classSessions).values([
    // One class open right away, so a fresh demo can go straight into a live session.
    {
      courseId: created[0]!.id,
      title: `${created[0]!.name}: open office hours`,
      startsAt: new Date(startOfThisHour),
      endsAt: new Date(startOfThisHour + 4 * hour),
      roomId: randomUUID(),
    },
    ...created.flatMap((course, i) => [
      {
        courseId: course.id,
        title: `${course.name}: orientation`,
        startsAt: new Date(startOfNextHour + (i + 1) * DAY),
        endsAt: new Date(startOfNextHour + (i + 1) * DAY + hour),
        roomId: randomUUID(),
      },
      {
        courseId: course.id,
        title: `${course.name}: live workshop`,
        startsAt: new Date(startOfNextHour + (i + 3) * DAY),
        endsAt: new Date(startOfNextHour + (i + 3) * DAY + 1.5 * hour),
        roomId: randomUUID(),
      },
    ]),
  ]);
  return { seeded: true as const };
}
