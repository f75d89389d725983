// Assignments: a course's teacher (or an admin) sets them, its students answer, the teacher reviews.
// Who may do what is access.ts; files (checked by their bytes, stored under `assignments/`, handed out
// as signed links) are files.ts. A file is written to storage before its row names it, and an old file
// is deleted only after the row stopped naming it: a refused or failed request changes no row and
// leaves no object.
import type { FastifyRequest } from 'fastify';
import type { MultipartFile } from '@fastify/multipart';
import { and, asc, eq, inArray, sql, type SQL } from 'drizzle-orm';
import { z } from 'zod';
import {
  assignmentFileField,
  assignmentLimits,
  submissionTextField,
  type Assignment,
  type assignmentInput,
  type assignmentPatch,
  type reviewBody,
  type Submission,
} from '@mooz/contract/assignments';
import { messages } from '@mooz/contract/messages';
import { multiLineText } from '@mooz/contract/primitives';
import type { Database } from '../../db/client';
import { assignments, submissions, subscriptions, users } from '../../db/schema/index';
import { HttpError, badRequest, conflict, forbidden, invalidField, notFound } from '../../http/errors';
import { checkAssignmentAccess, courseFor, courseRole, type Caller, type CourseAccess, type CourseRole } from './access';
import { StorageFailed, deleteFiles, storeUpload, type FileStore, type StoredFile } from './files';
import { presentAssignment, presentSubmission, type AssignmentRow, type SubmissionRow } from './presenter';
import { isActiveSubscription } from '../courses';
import { fullNameSql } from '../../db/person-name';
import type { NotificationsDoor } from '../notifications';

const manager = (role: CourseRole) => role === 'manager';
const anyReader = (role: CourseRole) => role !== 'none';
const answerField = multiLineText().max(assignmentLimits.answerMaxLength);

const submissionColumns = {
  id: submissions.id,
  assignmentId: submissions.assignmentId,
  userId: submissions.userId,
  text: submissions.text,
  fileKey: submissions.fileKey,
  fileName: submissions.fileName,
  fileType: submissions.fileType,
  fileSize: submissions.fileSize,
  status: submissions.status,
  grade: submissions.grade,
  passed: submissions.passed,
  feedback: submissions.feedback,
  reviewedBy: submissions.reviewedBy,
  reviewedAt: submissions.reviewedAt,
  submittedAt: submissions.submittedAt,
  updatedAt: submissions.updatedAt,
  studentName: fullNameSql,
};

/**
 * Stops reading the request: what is left of the body is read and thrown away, so the client gets the
 * answer and its connection stays usable.
 */
function discardRest(request: FastifyRequest) {
  request.raw.unpipe();
  request.raw.resume();
}

interface AssignmentsDeps {
  db: Database;
  /** Signs the file links. */
  secret: string;
  /** Where attached and submitted files are kept. */
  files: FileStore;
  told: Pick<NotificationsDoor, 'assignmentPosted' | 'answerReviewed' | 'kick'>;
}

export function createAssignmentsService(deps: AssignmentsDeps) {
  const { db, secret, files, told } = deps;

  async function submissionRows(where: SQL): Promise<SubmissionRow[]> {
    return db
      .select(submissionColumns)
      .from(submissions)
      .innerJoin(users, eq(users.id, submissions.userId))
      .where(where)
      .orderBy(asc(submissions.submittedAt), asc(submissions.id));
  }

  /** Assignments as the caller sees them: their own answer (students) or the counts (managers). */
  async function present(caller: Caller, access: CourseAccess, rows: AssignmentRow[], now = new Date()): Promise<Assignment[]> {
    if (rows.length === 0) return [];
    const ids = rows.map((r) => r.id);
    const canManage = access.role === 'manager';
    const counts = new Map<number, { submissions: number; waiting: number }>();
    const mine = new Map<number, SubmissionRow>();
    if (canManage) {
      const result = await db
        .select({
          assignmentId: submissions.assignmentId,
          total: sql<number>`count(*)::int`,
          waiting: sql<number>`(count(*) filter (where ${submissions.status} = 'submitted'))::int`,
        })
        .from(submissions)
        .where(inArray(submissions.assignmentId, ids))
        .groupBy(submissions.assignmentId);
      for (const row of result) counts.set(row.assignmentId, { submissions: Number(row.total), waiting: Number(row.waiting) });
    } else {
      for (const row of await submissionRows(and(inArray(submissions.assignmentId, ids), eq(submissions.userId, caller.id))!)) {
        mine.set(row.assignmentId, row);
      }
    }
    return rows.map((row) =>
      presentAssignment(
        secret,
        row,
        {
          courseName: access.course.name,
          mine: mine.get(row.id) ?? null,
          counts: canManage ? (counts.get(row.id) ?? { submissions: 0, waiting: 0 }) : null,
          canManage,
        },
        now,
      ),
    );
  }

  /** The assignment and the caller's role in its course; 404/403 as access.ts says. */
  async function assignmentFor(caller: Caller, id: number, allowed: (role: CourseRole) => boolean, denial?: string) {
    const [row] = await db.select().from(assignments).where(eq(assignments.id, id));
    if (!row) throw notFound(messages.assignmentNotFound);
    const access = checkAssignmentAccess(await courseRole(db, caller, row.courseId), allowed, denial);
    return { row, access };
  }

  async function presentOne(caller: Caller, access: CourseAccess, row: AssignmentRow) {
    return (await present(caller, access, [row]))[0]!;
  }

  /** The submission with its assignment's due date and course's teacher; 404 when there is none. */
  async function submissionWithCourse(id: number) {
    const [row] = await db.select().from(submissions).where(eq(submissions.id, id));
    if (!row) throw notFound(messages.submissionNotFound);
    const [assignment] = await db.select().from(assignments).where(eq(assignments.id, row.assignmentId));
    return { assignment: assignment!, submission: row };
  }

  /**
   * Reads a multipart body: at most one file in `file` (stored at once, checked by its bytes) and, when
   * `takesText`, a text field. Anything refused removes what was stored.
   */
  async function readParts(request: FastifyRequest, takesText: boolean): Promise<{ file: StoredFile | null; text: string | null }> {
    if (!request.isMultipart()) throw badRequest(takesText ? messages.submissionEmpty : messages.fileMissing);
    let file: StoredFile | null = null;
    let text: string | null = null;
    try {
      for await (const part of request.parts()) {
        if (part.type === 'field') {
          if (!takesText || part.fieldname !== submissionTextField) continue;
          if (text !== null) throw invalidField(submissionTextField, messages.validationFailed);
          const parsed = answerField.safeParse(part.value);
          if (part.valueTruncated || !parsed.success) {
            throw invalidField(submissionTextField, parsed.error?.issues[0]?.message ?? `At most ${assignmentLimits.answerMaxLength} characters`);
          }
          text = parsed.data;
          continue;
        }
        if (part.fieldname !== assignmentFileField || file !== null) throw badRequest(messages.fileMissing);
        file = await storeUpload(files, request, part as MultipartFile);
      }
    } catch (error) {
      discardRest(request);
      if (file) await deleteFiles(files, [file.fileKey]);
      if (error instanceof StorageFailed) throw error.cause;
      // A multipart body that does not parse (no boundary, a part cut short) is the client's doing.
      if (error instanceof HttpError || (error as { statusCode?: number }).statusCode) throw error;
      throw badRequest(messages.validationFailed);
    }
    return { file, text };
  }

  return {
    async list(caller: Caller, courseId: number): Promise<{ data: Assignment[] }> {
      const access = await courseFor(db, caller, courseId, anyReader);
      const rows = await db
        .select()
        .from(assignments)
        .where(eq(assignments.courseId, courseId))
        .orderBy(sql`${assignments.dueAt} asc nulls last`, asc(assignments.id));
      return { data: await present(caller, access, rows) };
    },

    async create(caller: Caller, courseId: number, body: z.infer<typeof assignmentInput>) {
      const access = await courseFor(db, caller, courseId, manager);
      const row = await db.transaction(async (tx) => {
        const [created] = await tx
          .insert(assignments)
          .values({
            courseId,
            title: body.title,
            instructions: body.instructions,
            dueAt: body.due_at ? new Date(body.due_at) : null,
            createdBy: caller.id,
          })
          .returning();
        await told.assignmentPosted(tx, created!);
        return created!;
      });
      told.kick();
      return { data: await presentOne(caller, access, row), message: messages.assignmentCreated };
    },

    async one(caller: Caller, id: number) {
      const { row, access } = await assignmentFor(caller, id, anyReader);
      return { data: await presentOne(caller, access, row) };
    },

    async update(caller: Caller, id: number, patch: z.infer<typeof assignmentPatch>) {
      const { access } = await assignmentFor(caller, id, manager);
      const [row] = await db
        .update(assignments)
        .set({
          ...(patch.title !== undefined && { title: patch.title }),
          ...(patch.instructions !== undefined && { instructions: patch.instructions }),
          ...(patch.due_at !== undefined && { dueAt: patch.due_at === null ? null : new Date(patch.due_at) }),
          updatedAt: new Date(),
        })
        .where(eq(assignments.id, id))
        .returning();
      if (!row) throw notFound(messages.assignmentNotFound);
      return { data: await presentOne(caller, access, row), message: messages.assignmentUpdated };
    },

    async remove(caller: Caller, id: number) {
      await assignmentFor(caller, id, manager);
      const keys = await db.transaction(async (tx) => {
        const answers = await tx.select({ fileKey: submissions.fileKey }).from(submissions).where(eq(submissions.assignmentId, id));
        const [gone] = await tx.delete(assignments).where(eq(assignments.id, id)).returning({ fileKey: assignments.fileKey });
        return gone ? [gone.fileKey, ...answers.map((a) => a.fileKey)] : [];
      });
      await deleteFiles(files, keys);
      return { data: null, message: messages.assignmentDeleted };
    },

    async attach(request: FastifyRequest & { params: { id: number } }, caller: Caller) {
      const { access } = await assignmentFor(caller, request.params.id, manager);
      const { file } = await readParts(request, false);
      if (!file) throw badRequest(messages.fileMissing);
      let old: string | null = null;
      let row: AssignmentRow | undefined;
      try {
        row = await db.transaction(async (tx) => {
          const [before] = await tx.select({ fileKey: assignments.fileKey }).from(assignments).where(eq(assignments.id, request.params.id)).for('update');
          if (!before) throw notFound(messages.assignmentNotFound);
          old = before.fileKey;
          const [after] = await tx.update(assignments).set({ ...file, updatedAt: new Date() }).where(eq(assignments.id, request.params.id)).returning();
          return after;
        });
      } catch (error) {
        await deleteFiles(files, [file.fileKey]);
        throw error;
      }
      await deleteFiles(files, [old]);
      return { data: await presentOne(caller, access, row!) };
    },

    async detach(caller: Caller, id: number) {
      const { access, row: before } = await assignmentFor(caller, id, manager);
      const [row] = await db
        .update(assignments)
        .set({ fileKey: null, fileName: null, fileType: null, fileSize: null, updatedAt: new Date() })
        .where(eq(assignments.id, id))
        .returning();
      if (!row) throw notFound(messages.assignmentNotFound);
      await deleteFiles(files, [before.fileKey]);
      return { data: await presentOne(caller, access, row), message: messages.attachmentRemoved };
    },

    async submissions(caller: Caller, id: number) {
      const { row, access } = await assignmentFor(caller, id, manager);
      const now = new Date();
      const [answers, students] = await Promise.all([
        submissionRows(eq(submissions.assignmentId, id)),
        db
          .selectDistinct({ studentId: users.id, studentName: fullNameSql, lastName: users.lastName, firstName: users.firstName })
          .from(subscriptions)
          .innerJoin(users, eq(users.id, subscriptions.userId))
          .where(and(eq(subscriptions.courseId, row.courseId), isActiveSubscription()))
          .orderBy(asc(users.firstName), asc(users.lastName), asc(users.id)),
      ]);
      const answered = new Set(answers.map((a) => a.userId));
      return {
        data: {
          assignment: (await present(caller, access, [row], now))[0]!,
          submissions: answers.map((a) => presentSubmission(secret, a, row.dueAt, now)),
          missing: students.filter((s) => !answered.has(s.studentId)).map((s) => ({ student_id: s.studentId, student_name: s.studentName })),
        },
      };
    },

    async submit(request: FastifyRequest & { params: { id: number } }, caller: Caller): Promise<{ data: Submission; message: string }> {
      const id = request.params.id;
      const { row } = await assignmentFor(caller, id, (role) => role === 'student', messages.notInCourse);
      // Refused before a byte is read when the answer is already final.
      const [existing] = await db
        .select({ status: submissions.status })
        .from(submissions)
        .where(and(eq(submissions.assignmentId, id), eq(submissions.userId, caller.id)));
      if (existing?.status === 'reviewed') throw conflict(messages.submissionAlreadyReviewed);

      const { file, text } = await readParts(request, true);
      if (!file && !(text ?? '').trim()) throw badRequest(messages.submissionEmpty, { [submissionTextField]: [messages.submissionEmpty] });
      const now = new Date();
      const answer = {
        text: text ?? '',
        fileKey: file?.fileKey ?? null,
        fileName: file?.fileName ?? null,
        fileType: file?.fileType ?? null,
        fileSize: file?.fileSize ?? null,
        submittedAt: now,
        updatedAt: now,
      };
      let old: string | null = null;
      let savedId: number;
      try {
        savedId = await db.transaction(async (tx) => {
          const [before] = await tx
            .select({ fileKey: submissions.fileKey, status: submissions.status })
            .from(submissions)
            .where(and(eq(submissions.assignmentId, id), eq(submissions.userId, caller.id)))
            .for('update');
          if (before?.status === 'reviewed') throw conflict(messages.submissionAlreadyReviewed);
          const [saved] = await tx
            .insert(submissions)
            .values({ assignmentId: id, userId: caller.id, ...answer })
            .onConflictDoUpdate({
              target: [submissions.assignmentId, submissions.userId],
              set: answer,
              setWhere: sql`${submissions.status} = 'submitted'`,
            })
            .returning({ id: submissions.id });
          // Reviewed between the check and the write.
          if (!saved) throw conflict(messages.submissionAlreadyReviewed);
          old = before?.fileKey ?? null;
          return saved.id;
        });
      } catch (error) {
        if (file) await deleteFiles(files, [file.fileKey]);
        throw error;
      }
      await deleteFiles(files, [old]);
      const [saved] = await submissionRows(eq(submissions.id, savedId));
      return { data: presentSubmission(secret, saved!, row.dueAt, now), message: messages.submissionSaved };
    },

    async submission(caller: Caller, id: number) {
      const { assignment, submission } = await submissionWithCourse(id);
      if (submission.userId !== caller.id) {
        const access = await courseRole(db, caller, assignment.courseId);
        if (access?.role !== 'manager') throw forbidden();
      }
      const [row] = await submissionRows(eq(submissions.id, id));
      return { data: presentSubmission(secret, row!, assignment.dueAt, new Date()) };
    },

    async review(caller: Caller, id: number, body: z.infer<typeof reviewBody>) {
      const { assignment, submission } = await submissionWithCourse(id);
      const access = await courseRole(db, caller, assignment.courseId);
      if (access?.role !== 'manager') throw forbidden();
      const now = new Date();
      await db
        .update(submissions)
        .set({
          status: 'reviewed',
          grade: body.grade ?? null,
          passed: body.passed ?? null,
          feedback: body.feedback,
          reviewedBy: caller.id,
          reviewedAt: now,
          updatedAt: now,
        })
        .where(eq(submissions.id, id));
      const [row] = await submissionRows(eq(submissions.id, id));
      if (!row) throw notFound(messages.submissionNotFound);
      await told.answerReviewed(db, { studentId: submission.userId, courseId: assignment.courseId, title: assignment.title, assignmentId: assignment.id });
      return { data: presentSubmission(secret, row, assignment.dueAt, now), message: messages.submissionReviewed };
    },
  };
}

export type AssignmentsService = ReturnType<typeof createAssignmentsService>;
