// The teacher dashboard's "Upcoming classes, next 7 days" links to /sessions?upcoming=7: the
// list then holds what the server counted, the sessions starting after now and within the days.
import { describe, expect, it } from 'vitest';
import type { Session } from '@mooz/contract/courses';
import { upcomingWithin } from './sessions-page';

const DAY = 24 * 3600_000;
const now = Date.parse('2026-11-28T12:00:00Z');
const at = (id: number, offset: number) => ({ id, starts_at: new Date(now + offset).toISOString() }) as Session;

describe('upcomingWithin', () => {
  it('keeps the sessions starting after now and up to the end of the days, as the dashboard counts them', () => {
    const sessions = [at(1, -10 * 60_000), at(2, 60_000), at(3, 2 * DAY), at(4, 7 * DAY), at(5, 7 * DAY + 1), at(6, 30 * DAY)];
    expect(upcomingWithin(sessions, 7, now).map((s) => s.id)).toEqual([2, 3, 4]);
  });
});
