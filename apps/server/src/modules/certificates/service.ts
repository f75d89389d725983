// Certificates: the caller's list (a student's, after issuing what they have earned; a teacher's
// courses'; every one for admins), awarding one by hand (the course's teacher or an admin, to a student
// who took the course and whose batch has ended, or earlier by an admin with a reason the audit log
// keeps), and the public verification and PDF by the certificate's unguessable id.
import { and, desc, eq, sql, type SQL } from 'drizzle-orm';
import { apiRoutes } from '@mooz/contract/api-routes';
import { mayAwardEarly, type Certificate, type CertificateVerification } from '@mooz/contract/certificates';
import { pathOf } from '@mooz/contract/endpoint';
import { fillMessage, messages } from '@mooz/contract/messages';
import type { Database } from '../../db/client';
import { certificates, courses } from '../../db/schema/index';
import { HttpError, conflict, notFound } from '../../http/errors';
import { auditIfAdmin } from '../admin';
import { type Caller, courseFor } from '../assignments';
import { batchHasEnded, earnDueCertificates, type CertificateTold } from './earn';
import { certificateId, normaliseCertificateId } from './ids';

type CertificateRow = typeof certificates.$inferSelect;

/** The PDF, public by the certificate's id (relative to the API's origin, as the dashboard lists it). */
const certificatePdfPath = (id: string) => pathOf(apiRoutes.certificates.pdf, { id });
/** The web app's public verification page. */
export const certificatePagePath = (id: string) => `/certificates/${encodeURIComponent(id)}`;

const rowsOf = <T>(result: unknown) => (result as { rows: T[] }).rows;

function presentCertificate(row: CertificateRow): Certificate {
  return {
    id: row.id,
    course_name: row.courseName,
    issued_at: row.issuedAt.toISOString(),
    url: certificatePdfPath(row.id),
    verify_url: certificatePagePath(row.id),
    student_name: row.studentName,
    teacher_name: row.teacherName,
    course_id: row.courseId,
    kind: row.kind,
    start_date: row.startDate,
    end_date: row.endDate,
  };
}

function presentVerification(row: CertificateRow): CertificateVerification {
  return {
    id: row.id,
    // It was issued here; `revoked` says whether it still stands.
    genuine: true,
    revoked: row.revokedAt !== null,
    student_name: row.studentName,
    course_name: row.courseName,
    teacher_name: row.teacherName,
    start_date: row.startDate,
    end_date: row.endDate,
    issued_at: row.issuedAt.toISOString(),
    url: certificatePdfPath(row.id),
  };
}

/** Each student's certificate of one course (revoked ones too: they still hold its place), for its students list. */
export async function certificatesOfCourse(db: Database, courseId: number): Promise<Map<number, { id: string; verify_url: string }>> {
  const rows = await db.select({ id: certificates.id, userId: certificates.userId }).from(certificates).where(eq(certificates.courseId, courseId));
  return new Map(rows.map((row) => [row.userId, { id: row.id, verify_url: certificatePagePath(row.id) }]));
}

export function createCertificatesService({ db, now = () => new Date(), told }: { db: Database; now?: () => Date; told?: CertificateTold }) {
  /** The certificate a public id names; 404 for one never issued, malformed ids included. */
  async function byId(text: string): Promise<CertificateRow> {
    const id = normaliseCertificateId(text);
    if (!id) throw notFound(messages.certificateNotFound);
    const [row] = await db.select().from(certificates).where(eq(certificates.id, id));
    if (!row) throw notFound(messages.certificateNotFound);
    return row;
  }

  return {
    byId,

    async mine(caller: Caller): Promise<{ data: Certificate[] }> {
      let where: SQL | undefined;
      if (caller.userType === 'student') {
        // What they have earned appears here even if they never open the dashboard.
        await earnDueCertificates(db, caller.id, undefined, undefined, told);
        where = eq(certificates.userId, caller.id);
      } else if (caller.userType === 'teacher') {
        where = sql`${certificates.courseId} in (select ${courses.id} from ${courses} where ${courses.teacherId} = ${caller.id})`;
      }
      const rows = await db
        .select()
        .from(certificates)
        .where(and(where, sql`${certificates.revokedAt} is null`))
        .orderBy(desc(certificates.issuedAt), desc(certificates.id));
      return { data: rows.map(presentCertificate) };
    },

    async award(
      caller: Caller,
      courseId: number,
      body: { student_id: number; reason?: string | undefined },
    ): Promise<{ data: Certificate; message: string }> {
      const studentId = body.student_id;
      await courseFor(db, caller, courseId, (role) => role === 'manager');
      // The student's purchase of the course that is, or was, active: the latest such, its batch's dates.
      const taken = await db.execute(sql`
        select u.first_name || ' ' || u.last_name as student_name, c.name as course_name,
          t.first_name || ' ' || t.last_name as teacher_name, s.batch_id,
          coalesce(b.start_date, s.start_date)::text as start_date, coalesce(b.end_date, s.end_date)::text as end_date,
          ${batchHasEnded(sql`coalesce(b.end_date, s.end_date)`, sql`c.time_zone`, now())} as ended
        from subscriptions s
        join users u on u.id = s.user_id
        join courses c on c.id = s.course_id
        join users t on t.id = c.teacher_id
        left join batches b on b.id = s.batch_id
        where s.user_id = ${studentId} and s.course_id = ${courseId} and (s.status = 'active' or s.activated_at is not null)
        order by (s.status = 'active') desc, s.activated_at desc nulls last
        limit 1`);
      const [purchase] = rowsOf<{
        student_name: string;
        course_name: string;
        teacher_name: string;
        batch_id: number | null;
        start_date: string;
        end_date: string;
        ended: boolean;
      }>(taken);
      if (!purchase) throw new HttpError(422, messages.studentNotInCourse, { student_id: [messages.studentNotInCourse] });
      if (!purchase.ended) {
        if (!mayAwardEarly(caller.userType)) throw conflict(fillMessage(messages.certificateBatchNotEnded, { date: purchase.end_date }));
        if (!body.reason) throw new HttpError(409, messages.certificateEarlyNeedsReason, { reason: [messages.certificateEarlyNeedsReason] });
      }
      const row = await db.transaction(async (tx) => {
        const [inserted] = await tx
          .insert(certificates)
          .values({
            id: certificateId(),
            userId: studentId,
            courseId,
            batchId: purchase.batch_id === null ? null : Number(purchase.batch_id),
            kind: 'awarded',
            issuedBy: caller.id,
            studentName: purchase.student_name,
            courseName: purchase.course_name,
            teacherName: purchase.teacher_name,
            startDate: purchase.start_date,
            endDate: purchase.end_date,
          })
          .onConflictDoNothing({ target: [certificates.userId, certificates.courseId] })
          .returning();
        if (!inserted) throw conflict(messages.certificateExists);
        // An admin's award is theirs to answer for, an early one with its reason.
        await auditIfAdmin(tx, caller, 'certificate.award', { type: 'certificate', id: inserted.id }, {
          course_id: courseId,
          student_id: studentId,
          start_date: purchase.start_date,
          end_date: purchase.end_date,
          early: !purchase.ended,
          ...(body.reason && { reason: body.reason }),
        });
        await told?.certificateIssued(tx, { id: inserted.id, userId: studentId, courseId });
        return inserted;
      });
      told?.kick();
      return { data: presentCertificate(row), message: messages.certificateAwarded };
    },

    async verify(text: string): Promise<{ data: CertificateVerification }> {
      return { data: presentVerification(await byId(text)) };
    },
  };
}

export type CertificatesService = ReturnType<typeof createCertificatesService>;
