import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { count } from 'drizzle-orm';
import { createTestDatabase } from '../test/database';
import type { DatabaseHandle } from './db/client';
import { classSessions, courses, users } from './db/schema/index';
import { seedDemo } from './seed';

let handle: DatabaseHandle;
beforeEach(async () => {
  handle = await createTestDatabase();
});
afterEach(async () => {
  await handle.close();
});

describe('demo data', () => {
  it('seeds the demo accounts, three courses with future batches and scheduled sessions, once', async () => {
    const now = new Date('2026-11-22T10:00:00Z');
    expect((await seedDemo(handle.db, { password: 'mooz-demo-123', trialDays: 7, now })).seeded).toBe(true);
    const people = await handle.db.select().from(users);
    expect(people.map((u) => [u.email, u.userType, u.isActive])).toEqual([
      ['admin@mooz.local', 'admin', true],
      ['teacher@mooz.local', 'teacher', true],
      ['student@mooz.local', 'student', true],
    ]);
    const catalogue = await handle.db.select().from(courses);
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
    expect((await handle.db.select({ n: count() }).from(users))[0]!.n).toBe(3);
  });
});
