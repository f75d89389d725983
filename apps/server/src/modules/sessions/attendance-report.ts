// Who attended a session, from the visits the meeting server recorded (realtime/attendance.ts): each
// person's first join, last leave and time present, and the session's students who never came.
// Time present counts the session's span only (joining early to test a camera is not attendance), and
// overlapping visits (two tabs) once; a visit never closed (the server died) ends with the session.
// While the session runs the same report is live: minutes count to now; until the end, an open visit is someone here.
import type { SessionAttendance } from '@mooz/contract/teaching';
import { fullName } from '../../db/person-name';

interface Visit {
  userId: number;
  firstName: string;
  lastName: string;
  email: string;
  joinedAt: Date;
  leftAt: Date | null;
}

interface Span {
  startsAt: Date;
  endsAt: Date;
}

/** Milliseconds covered by the visits within the session, each instant once. */
export function presentMs(visits: Pick<Visit, 'joinedAt' | 'leftAt'>[], session: Span): number {
  const clipped = visits
    .map((v) => [Math.max(v.joinedAt.getTime(), session.startsAt.getTime()), Math.min((v.leftAt ?? session.endsAt).getTime(), session.endsAt.getTime())] as const)
    .filter(([from, to]) => to > from)
    .sort((a, b) => a[0] - b[0]);
  let total = 0;
  let until = -Infinity;
  for (const [from, to] of clipped) {
    const start = Math.max(from, until);
    if (to > start) total += to - start;
    until = Math.max(until, to);
  }
  return total;
}

/**
 * The report as of `at`: while the session runs, time present counts up to now and an open visit means
 * the person is here; once it ended, everything counts to its end.
 */
export function presentAttendance(
  session: Span & { id: number },
  visits: Visit[],
  students: { id: number; firstName: string; lastName: string; email: string }[],
  at: Date,
): SessionAttendance {
  const live = at >= session.startsAt && at < session.endsAt;
  // Until the end, time counts up to now (none before the start: the room opens a few minutes early).
  const span = { startsAt: session.startsAt, endsAt: at < session.endsAt ? at : session.endsAt };
  const byPerson = new Map<number, Visit[]>();
  for (const visit of visits) byPerson.set(visit.userId, [...(byPerson.get(visit.userId) ?? []), visit]);
  const attended = [...byPerson.values()]
    .map((mine) => {
      const sorted = [...mine].sort((a, b) => a.joinedAt.getTime() - b.joinedAt.getTime());
      const first = sorted[0]!;
      const open = mine.some((v) => v.leftAt === null);
      const lastLeft = open ? null : mine.reduce((a, b) => (b.leftAt! > a.leftAt! ? b : a)).leftAt;
      return {
        user_id: first.userId,
        name: fullName(first),
        email: first.email,
        first_joined_at: first.joinedAt.toISOString(),
        last_left_at: lastLeft ? lastLeft.toISOString() : null,
        minutes_present: Math.round(presentMs(mine, span) / 60_000),
        // Before the start too: the room opens a few minutes early.
        here: at < session.endsAt && open,
        visits: sorted.map((v) => ({ joined_at: v.joinedAt.toISOString(), left_at: v.leftAt ? v.leftAt.toISOString() : null })),
      };
    })
    .sort((a, b) => a.name.localeCompare(b.name) || a.user_id - b.user_id);
  return {
    session_id: session.id,
    live,
    attended,
    absent: students.filter((s) => !byPerson.has(s.id)).map((s) => ({ user_id: s.id, name: fullName(s), email: s.email })),
  };
}
