import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { count, isNull } from 'drizzle-orm';
import { createTestDatabase } from '../test/database';
import type { DatabaseHandle } from './db/client';
import { certificates, classSessions, courses, users } from './db/schema/index';
import { createDashboardsService } from './modules/dashboards/service';
import { seedDemo } from './seed';

let handle: DatabaseHandle;
beforeEach(async () => {
  handle = await createTestDatabase();
});
afterEach(async () => {
  await handle.close();
});

const close = (x: number) => Number(x.toFixed(9));

describe('demo data', () => {
  it('seeds the demo accounts, three courses with future batches and scheduled sessions, once', async () => {
    const now = new Date('2026-11-22T10:00:00Z');
    expect((await seedDemo(handle.db, { password: 'mooz-demo-123', trialDays: 7, now })).seeded).toBe(true);
    const people = await handle.db.select().from(users);
    expect(people.map((u) => [u.email, u.userType, u.isActive])).toEqual([
      ['admin@mooz.local', 'admin', true],
      ['teacher@mooz.local', 'teacher', true],
      ['student@mooz.local', 'student', true],
      ['learner@mooz.local', 'student', true],
    ]);
    // The catalogue: three courses; the fourth, of the dashboards' past, is archived.
    const catalogue = await handle.db.select().from(courses).where(isNull(courses.archivedAt));
    expect(catalogue).toHaveLength(3);
    for (const course of catalogue) {
      expect(course.batchStartDates.every((d) => d > '2026-11-22')).toBe(true);
      expect(course.weekdayTimes.length).toBeGreaterThan(0);
      expect(course.weekendTimes.length).toBeGreaterThan(0);
    }
    const sessions = await handle.db.select().from(classSessions);
    const live = sessions.filter((s) => s.startsAt <= now && s.endsAt > now);
    expect(live).toHaveLength(1);
    expect(sessions.filter((s) => s.startsAt > now).length).toBeGreaterThanOrEqual(6);

    expect((await seedDemo(handle.db, { password: 'x-y-z-123', trialDays: 7, now })).seeded).toBe(false);
    expect((await handle.db.select({ n: count() }).from(users))[0]!.n).toBe(4);
    expect((await handle.db.select({ n: count() }).from(certificates))[0]!.n).toBe(1);
  });

  it('gives the demo accounts dashboards with a past: hours, a week, assignments, skills, a certificate', async () => {
    const now = new Date('2026-11-22T10:00:00Z'); // a Sunday: the past course ran 9-20 November
    await seedDemo(handle.db, { password: 'mooz-demo-123', trialDays: 7, now });
    const ids = Object.fromEntries((await handle.db.select().from(users)).map((u) => [u.email.split('@')[0]!, u.id]));
    const dashboards = createDashboardsService({ db: handle.db });

    // The demo student, still in trial: two open Q&As (45 and 75 minutes) and 12 minutes watched.
    const student = (await dashboards.student({ id: ids.student!, userType: 'student' }, {}, now)).data;
    expect(close(student.learning_stats.total_learning_hours)).toBe(2.2);
    expect(student.weekly_learning_trends.map((d) => close(d.hours))).toEqual([0, 0, 1.25, 0, 0.2, 0, 0]);
    expect(student.learning_stats).toMatchObject({ assignments_total: 0, assignments_completed: 0 });
    expect(student.next_class).toMatchObject({ status: 'live' });

    // Lina: eight classes (434 minutes), both Q&As (150), an hour of recording; 10 of 12 sessions done.
    const learner = (await dashboards.student({ id: ids.learner!, userType: 'student' }, {}, now)).data;
    expect(close(learner.learning_stats.total_learning_hours)).toBe(close(644 / 60));
    expect(learner.learning_stats).toMatchObject({ assignments_total: 2, assignments_completed: 1 });
    expect(learner.assignments_due.map((a) => a.title)).toEqual(['Review a pull request']);
    expect(learner.skills).toEqual([
      { name: 'Git', level: 83 },
      { name: 'GitHub', level: 83 },
      { name: 'Code review', level: 83 },
    ]);
    expect(learner.certificates).toHaveLength(1);
    expect(learner.certificates[0]).toMatchObject({ course_name: 'Git and GitHub Essentials', id: expect.stringMatching(/^[0-9A-HJKMNP-TV-Z]{16}$/) });
    expect(learner.weekly_learning_trends.filter((d) => d.hours > 0).length).toBeGreaterThanOrEqual(3);

    // The teacher: nine classes of 65 minutes and two Q&As of 90; the fourth class missed.
    const teacher = (await dashboards.teacher({ id: ids.teacher!, userType: 'teacher' }, {}, now)).data;
    expect(close(teacher.stats.totalTeachingHours)).toBe(12.75);
    expect(teacher.stats).toMatchObject({ activeStudents: 2, missingClasses: 1, nextClass: { status: 'live' } });
    expect(teacher.missedClasses.map((s) => s.title)).toEqual(['Git and GitHub Essentials: Rebasing']);
    expect(teacher.weeklyTrends.some((d) => d.hours > 0)).toBe(true);
  });
});
