// Assignments and answers as the contract shows them: instants as ISO strings, files as signed links.
import type { Assignment, Submission } from '@mooz/contract/assignments';
import type { assignments, submissions } from '../../db/schema/index';
import { presentFile } from './files';

export type AssignmentRow = typeof assignments.$inferSelect;
export type SubmissionRow = typeof submissions.$inferSelect & { studentName: string };

/** A late answer: submitted after the due date (as the due date stands now). */
const isLate = (submittedAt: Date, dueAt: Date | null) => dueAt !== null && submittedAt.getTime() > dueAt.getTime();

export function presentSubmission(secret: string, row: SubmissionRow, dueAt: Date | null, now: Date): Submission {
  return {
    id: row.id,
    assignment_id: row.assignmentId,
    student_id: row.userId,
    student_name: row.studentName,
    text: row.text,
    file: presentFile(secret, { kind: 's', id: row.id }, row, now),
    status: row.status,
    grade: row.grade,
    passed: row.passed,
    feedback: row.feedback,
    submitted_at: row.submittedAt.toISOString(),
    reviewed_at: row.reviewedAt ? row.reviewedAt.toISOString() : null,
    late: isLate(row.submittedAt, dueAt),
  };
}

interface AssignmentExtras {
  courseName: string;
  /** The caller's own answer (students), or null. */
  mine: SubmissionRow | null;
  /** For those who manage it: answers received and those waiting for review; null for students. */
  counts: { submissions: number; waiting: number } | null;
  canManage: boolean;
}

export function presentAssignment(secret: string, row: AssignmentRow, extras: AssignmentExtras, now: Date): Assignment {
  return {
    id: row.id,
    course_id: row.courseId,
    course_name: extras.courseName,
    title: row.title,
    instructions: row.instructions,
    due_at: row.dueAt ? row.dueAt.toISOString() : null,
    attachment: presentFile(secret, { kind: 'a', id: row.id }, row, now),
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
    my_submission: extras.mine ? presentSubmission(secret, extras.mine, row.dueAt, now) : null,
    submissions_count: extras.counts ? extras.counts.submissions : null,
    waiting_review_count: extras.counts ? extras.counts.waiting : null,
    can_manage: extras.canManage,
  };
}
