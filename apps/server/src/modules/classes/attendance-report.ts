// Who attended a session, from the visits the meeting server recorded (realtime/attendance.ts): each
// person's first join, last leave and time present, and the session's students who never came.
// Time present counts the session's span only (joining early to test a camera is not attendance), and
// overlapping visits (two tabs) once; a visit never closed (the server died) ends with the session.
import type { SessionAttendance } from '@mooz/contract/teaching';
import { fullName } from '../courses/presenter';

interface Visit {
  userId: number;
  firstName: string;
  lastName: string;
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

export function presentAttendance(
  session: Span & { id: number },
  visits: Visit[],
  students: { id: number; firstName: string; lastName: string }[],
): SessionAttendance {
  const byPerson = new Map<number, Visit[]>();
  for (const visit of visits) byPerson.set(visit.userId, [...(byPerson.get(visit.userId) ?? []), visit]);
  const attended = [...byPerson.values()]
    .map((mine) => {
      const first = mine.reduce((a, b) => (b.joinedAt < a.joinedAt ? b : a));
      const open = mine.some((v) => v.leftAt === null);
      const lastLeft = open ? null : mine.reduce((a, b) => (b.leftAt! > a.leftAt! ? b : a)).leftAt;
      return {
        user_id: first.userId,
        name: fullName(first),
        first_joined_at: first.joinedAt.toISOString(),
        last_left_at: lastLeft ? lastLeft.toISOString() : null,
        minutes_present: Math.round(presentMs(mine, session) / 60_000),
      };
    })
    .sort((a, b) => a.name.localeCompare(b.name) || a.user_id - b.user_id);
  return {
    session_id: session.id,
    attended,
    absent: students.filter((s) => !byPerson.has(s.id)).map((s) => ({ user_id: s.id, name: fullName(s) })),
  };
}
