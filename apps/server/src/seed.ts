// Demo data (SEED_DEMO=1): the demo accounts, courses taught by the demo teacher with future batch
// dates and times, and a few scheduled sessions; and a past for the dashboards (history() below).
// Only ever into an empty database.
import { randomUUID } from 'node:crypto';
import { count } from 'drizzle-orm';
import type { Database } from './db/client';
import {
  assignments,
  attendance,
  batches,
  classSessions,
  courses,
  recordings,
  recordingViews,
  subscriptions,
  submissions,
  users,
  watchLog,
} from './db/schema/index';
import { earnDueCertificates } from './modules/certificates/earn';
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
  /** A student who took a course that has ended: assignments, an earned certificate, skills. */
  learner: 'learner@mooz.local',
} as const;

export async function seedDemo(db: Database, options: { password: string; trialDays: number; now?: Date }) {
  const now = options.now ?? new Date();
  const [row] = await db.select({ n: count() }).from(users);
  if ((row?.n ?? 0) > 0) return { seeded: false as const };

  const passwordHash = await hashPassword(options.password);
  const verified = { passwordHash, isActive: true, emailVerifiedAt: now };
  const [, teacher, student] = await db
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
  const [learner] = await db
    .insert(users)
    .values({ ...verified, email: demoEmails.learner, firstName: 'Lina', lastName: 'Learner', userType: 'student' as const, trialEndsAt: now })
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
  await history(db, { teacherId: teacher!.id, studentId: student!.id, learnerId: learner!.id, now });
  return { seeded: true as const };
}

const MIN = 60_000;
const isoDay = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/**
 * The dashboards' past, ending before now. An earlier two-week course of the demo teacher, archived
 * since (out of the catalogue and of a trial student's lists): its weekday batch ended last Friday or
 * before, ten classes at 10:00 in India. Lina bought it, attended eight classes and both open Q&As (some in
 * the last seven days), watched a recording, submitted one of its two assignments (reviewed) and earned its
 * certificate; the teacher taught nine classes and missed one. Two open Q&A sessions of it, this week
 * and last, were attended by the demo student too (still in trial: nothing bought, so the purchase flow
 * stays as it was for them) and by the teacher. The recording's file is not part of the demo data, so
 * it is not ready and no list shows it; its watch time is in recording_views and watch_log.
 */
async function history(db: Database, who: { teacherId: number; studentId: number; learnerId: number; now: Date }) {
  const { teacherId, studentId, learnerId, now } = who;
  const today = Date.parse(`${isoDay(now.getTime())}T00:00:00Z`);
  // The last Friday before today (UTC, so also before today in India), and the Monday 11 days earlier.
  const lastFriday = today - (((new Date(today).getUTCDay() + 2) % 7 || 7) * DAY);
  const batchStart = isoDay(lastFriday - 11 * DAY);
  const batchEnd = isoDay(lastFriday);
  const [course] = await db
    .insert(courses)
    .values({
      name: 'Git and GitHub Essentials',
      description: 'Branch, merge, rebase and review with confidence: a short course on everyday version control.',
      price: 299_900,
      currency: 'INR',
      teacherId,
      skills: ['Git', 'GitHub', 'Code review'],
      durationWeeks: 2,
      batchStartDates: [batchStart],
      weekdayTimes: ['10:00'],
      weekendTimes: [],
      published: true,
      archivedAt: now,
    })
    .returning();
  const [batch] = await db
    .insert(batches)
    .values({ courseId: course!.id, kind: 'weekdays', startDate: batchStart, endDate: batchEnd, time: '10:00', seats: 9, seatsTaken: 1 })
    .returning();
  await db.insert(subscriptions).values({
    id: randomUUID(),
    userId: learnerId,
    courseId: course!.id,
    batch: 'weekdays',
    startDate: batchStart,
    endDate: batchEnd,
    time: '10:00',
    batchId: batch!.id,
    status: 'active',
    amount: 299_900,
    currency: 'INR',
    orderId: `order_demo_${randomUUID().replaceAll('-', '').slice(0, 14)}`,
    paymentId: `pay_demo_${randomUUID().replaceAll('-', '').slice(0, 14)}`,
    activatedAt: new Date(Date.parse(`${batchStart}T00:00:00Z`) - 3 * DAY),
  });

  // Ten weekday classes at 10:00 India time (04:30 UTC), an hour each.
  const classDays = Array.from({ length: 12 }, (_, i) => Date.parse(`${batchStart}T04:30:00Z`) + i * DAY).filter((ms) => {
    const day = new Date(ms).getUTCDay();
    return day !== 0 && day !== 6;
  });
  const lessons = ['Commits', 'Branches', 'Merging', 'Rebasing', 'Remotes', 'Pull requests', 'Code review', 'Conflicts', 'History', 'Releases'];
  const classes = await db
    .insert(classSessions)
    .values(
      classDays.map((start, i) => ({
        courseId: course!.id,
        batchId: batch!.id,
        title: `${course!.name}: ${lessons[i] ?? `lesson ${i + 1}`}`,
        startsAt: new Date(start),
        endsAt: new Date(start + 60 * MIN),
        roomId: randomUUID(),
      })),
    )
    .returning();
  // Open Q&A sessions (no batch) four and nine days ago at 16:00 UTC, 90 minutes.
  const qa = await db
    .insert(classSessions)
    .values(
      [9, 4].map((daysAgo) => ({
        courseId: course!.id,
        title: `${course!.name}: open Q&A`,
        startsAt: new Date(today - daysAgo * DAY + 16 * 60 * MIN),
        endsAt: new Date(today - daysAgo * DAY + 17.5 * 60 * MIN),
        roomId: randomUUID(),
      })),
    )
    .returning();

  const present = (sessionId: number, userId: number, start: Date, fromMin: number, toMin: number) => ({
    sessionId,
    userId,
    joinedAt: new Date(start.getTime() + fromMin * MIN),
    leftAt: new Date(start.getTime() + toMin * MIN),
  });
  await db.insert(attendance).values([
    // The teacher taught every class but the fourth, a few minutes early to the end.
    ...classes.filter((_, i) => i !== 3).map((c) => present(c.id, teacherId, c.startsAt, -5, 60)),
    // Lina missed the fourth and the seventh, came late to one and left early from another.
    ...classes.filter((_, i) => i !== 3 && i !== 6).map((c, i) => present(c.id, learnerId, c.startsAt, i === 2 ? 12 : 0, i === 5 ? 40 : 58)),
    ...qa.map((s) => present(s.id, teacherId, s.startsAt, 0, 90)),
    ...qa.map((s, i) => present(s.id, studentId, s.startsAt, i === 0 ? 5 : 0, i === 0 ? 50 : 75)),
    ...qa.map((s, i) => present(s.id, learnerId, s.startsAt, 0, i === 0 ? 60 : 90)),
  ]);

  const [recording] = await db
    .insert(recordings)
    .values({
      courseId: course!.id,
      sessionId: classes[3]!.id,
      roomId: classes[3]!.roomId,
      title: classes[3]!.title,
      recordedBy: teacherId,
      source: 'upload',
      status: 'processing',
      durationSeconds: 3600,
      createdAt: classes[3]!.endsAt,
    })
    .returning();
  // Lina caught up on the class she missed over three evenings; the demo student watched a part.
  const watched = [
    { userId: learnerId, at: today - 8 * DAY + 18 * 60 * MIN, seconds: 1200 },
    { userId: learnerId, at: today - 3 * DAY + 18 * 60 * MIN, seconds: 900 },
    { userId: learnerId, at: today - 1 * DAY + 18 * 60 * MIN, seconds: 1500 },
    { userId: studentId, at: today - 2 * DAY + 19 * 60 * MIN, seconds: 720 },
  ];
  await db.insert(watchLog).values(watched.map((w) => ({ userId: w.userId, recordingId: recording!.id, courseId: course!.id, watchedAt: new Date(w.at), seconds: w.seconds })));
  await db.insert(recordingViews).values([
    { recordingId: recording!.id, userId: learnerId, positionSeconds: 3600, watchedSpans: [[0, 3600]], watchedSeconds: 3600, updatedAt: new Date(watched[2]!.at) },
    { recordingId: recording!.id, userId: studentId, positionSeconds: 720, watchedSpans: [[0, 720]], watchedSeconds: 720, updatedAt: new Date(watched[3]!.at) },
  ]);

  const [branching] = await db
    .insert(assignments)
    .values([
      {
        courseId: course!.id,
        title: 'Branch, merge and tidy up',
        instructions: 'Create a feature branch, make three commits, merge it back and paste your `git log --graph --oneline`.',
        dueAt: new Date(Date.parse(`${batchEnd}T18:29:00Z`)),
        createdBy: teacherId,
        createdAt: new Date(Date.parse(`${batchStart}T06:00:00Z`)),
      },
      {
        courseId: course!.id,
        title: 'Review a pull request',
        instructions: 'Open a pull request on the practice repository and review a classmate’s: at least three comments.',
        dueAt: new Date(today + 5 * DAY + 18 * 60 * MIN),
        createdBy: teacherId,
        createdAt: new Date(Date.parse(`${batchStart}T06:00:00Z`)),
      },
    ])
    .returning();
  await db.insert(submissions).values({
    assignmentId: branching!.id,
    userId: learnerId,
    text: '* 4f2c1e0 Merge branch feature/greeting\n|\\\n| * 9b1d7a2 Say hello in French\n| * 2e8c3f4 Add a greeting\n|/\n* 1a0b9c8 First commit',
    status: 'reviewed',
    grade: 92,
    passed: true,
    feedback: 'Clean history and clear commit messages. Next time, delete the branch once it is merged.',
    reviewedBy: teacherId,
    reviewedAt: new Date(lastFriday + 10 * 60 * MIN),
    submittedAt: new Date(lastFriday - 2 * DAY + 15 * 60 * MIN),
  });

  // Eight of the ten classes and the Q&As attended: over the share that earns the certificate, issued
  // by the rule itself (certificates/earn.ts), as a dashboard or the periodic pass would.
  await earnDueCertificates(db, learnerId, now);
}
