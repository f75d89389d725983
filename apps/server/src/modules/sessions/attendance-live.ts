// The attendance of a class session for its teacher and admins: live while it runs (the
// meeting's People tab polls it by room), after it ended, and as a CSV file. Read from the visits the
// meeting server records (realtime/attendance.ts); shaped by attendance-report.ts. Who may: the
// session's edit rule (unknown 404, someone else's 403), as for changing the session.
import { subject } from '@casl/ability';
import type { FastifyReply } from 'fastify';
import { asc, eq, type SQL } from 'drizzle-orm';
import { messages } from '@mooz/contract/messages';
import type { SessionAttendance } from '@mooz/contract/teaching';
import type { Database } from '../../db/client';
import { attendance, classSessions, courses, users } from '../../db/schema/index';
import type { AuthUser } from '../../http/authenticate';
import { conflict, forbidden, notFound } from '../../http/errors';
import { attachment, fileSlug, toCsv } from '../../infrastructure/csv';
import { payingStudents } from '../courses';
import { presentAttendance, presentMs } from './attendance-report';

type Caller = Pick<AuthUser, 'id' | 'userType' | 'ability'>;

export function createAttendanceReports(deps: { db: Database; now?: () => Date }) {
  const { db } = deps;
  const now = deps.now ?? (() => new Date());

  /** The session (by id or by room) with its course's teacher, when the caller runs it. */
  async function managed(caller: Caller, where: SQL) {
    const [row] = await db
      .select({ session: classSessions, course: { name: courses.name, teacherId: courses.teacherId } })
      .from(classSessions)
      .innerJoin(courses, eq(courses.id, classSessions.courseId))
      .where(where);
    if (!row) throw notFound(messages.sessionNotFound);
    if (!caller.ability.can('update', subject('Session', { teacher_id: row.course.teacherId } as Record<string, unknown>))) throw forbidden();
    if (row.session.cancelledAt) throw conflict(messages.sessionAlreadyCancelled);
    return row;
  }

  async function report(row: Awaited<ReturnType<typeof managed>>, at: Date): Promise<SessionAttendance> {
    const { session } = row;
    const [visits, students] = await Promise.all([
      db
        .select({
          userId: attendance.userId,
          joinedAt: attendance.joinedAt,
          leftAt: attendance.leftAt,
          firstName: users.firstName,
          lastName: users.lastName,
          email: users.email,
        })
        .from(attendance)
        .innerJoin(users, eq(users.id, attendance.userId))
        .where(eq(attendance.sessionId, session.id))
        .orderBy(asc(attendance.joinedAt), asc(attendance.id)),
      // The session's students: its batch's paying ones, or the whole course's for an extra session.
      payingStudents(db, session),
    ]);
    // The teacher's own presence is not attendance of their class.
    const attendees = visits.filter((v) => v.userId !== row.course.teacherId);
    return presentAttendance(session, attendees, students, at);
  }

  return {
    async bySession(caller: Caller, id: number): Promise<{ data: SessionAttendance }> {
      const row = await managed(caller, eq(classSessions.id, id));
      return { data: await report(row, now()) };
    },

    async byRoom(caller: Caller, roomId: string): Promise<{ data: SessionAttendance }> {
      const row = await managed(caller, eq(classSessions.roomId, roomId));
      return { data: await report(row, now()) };
    },

    /** One row per stint (a leave-and-return is two), then one per student who did not come. */
    async csv(caller: Caller, id: number, reply: FastifyReply): Promise<FastifyReply> {
      const row = await managed(caller, eq(classSessions.id, id));
      const at = now();
      const { header, rows } = attendanceCsvRows(await report(row, at), row.session, at);
      return reply
        .status(200)
        .header('content-type', 'text/csv; charset=utf-8')
        .header('content-disposition', attachment(attendanceCsvName(row.session.title, row.session.startsAt)))
        .header('cache-control', 'no-store')
        .send(toCsv(header, rows));
    },
  };
}

const csvHeader = ['Name', 'Email', 'Joined (UTC)', 'Left (UTC)', 'Minutes present', 'Status'];
const utc = (iso: string | null) => (iso ? iso.slice(0, 19).replace('T', ' ') : '');

function attendanceCsvRows(report: SessionAttendance, session: { startsAt: Date; endsAt: Date }, at: Date) {
  const span = { startsAt: session.startsAt, endsAt: at < session.endsAt ? at : session.endsAt };
  const minutes = (joined: string, left: string | null) =>
    Math.round(presentMs([{ joinedAt: new Date(joined), leftAt: left ? new Date(left) : null }], span) / 60_000);
  return {
    header: csvHeader,
    rows: [
      ...report.attended.flatMap((person) =>
        person.visits.map((visit) => [person.name, person.email, utc(visit.joined_at), utc(visit.left_at), minutes(visit.joined_at, visit.left_at), 'present']),
      ),
      ...report.absent.map((person) => [person.name, person.email, '', '', 0, 'absent']),
    ],
  };
}

/** `attendance-intro-to-clay-2030-01-01.csv`: the session's title as a slug, and its day (UTC). */
export function attendanceCsvName(title: string, startsAt: Date): string {
  return `attendance-${fileSlug(title, 'session')}-${startsAt.toISOString().slice(0, 10)}.csv`;
}
