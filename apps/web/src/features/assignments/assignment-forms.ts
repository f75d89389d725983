// The three forms of assignments as plain functions (the components hold no rules): the teacher's
// editor, the student's answer and the teacher's review. Each turns its fields into the contract's
// body and says which fields are wrong, by the contract's own schemas and limits.
import { assignmentInput, assignmentLimits, assignmentPatch, reviewBody } from '@mooz/contract/assignments';
import { isoFromDueInput } from './due-date';
import { viewerTimeZone } from '../../lib/intl';

// ---- The teacher's editor ----

export interface AssignmentValues {
  title: string;
  instructions: string;
  /** datetime-local value on the teacher's clocks, '' for no due date. */
  due: string;
}

type AssignmentProblem = 'titleRequired' | 'titleTooLong' | 'instructionsTooLong' | 'dueInvalid' | 'duePast';

export function assignmentBody(values: AssignmentValues, zone: string = viewerTimeZone()) {
  return {
    title: values.title.trim(),
    instructions: values.instructions,
    due_at: values.due ? (isoFromDueInput(values.due, zone) ?? values.due) : null,
  };
}

/**
 * What is wrong with the editor's fields. A due date in the past is refused when it is new (creating,
 * or changed while editing); an old assignment keeps the due date it had.
 */
export function assignmentProblems(
  values: AssignmentValues,
  {
    zone = viewerTimeZone(),
    now = Date.now(),
    unchangedDue,
  }: { zone?: string; now?: number; unchangedDue?: string } = {},
): Partial<Record<keyof AssignmentValues, AssignmentProblem>> {
  const problems: Partial<Record<keyof AssignmentValues, AssignmentProblem>> = {};
  const body = assignmentBody(values, zone);
  const parsed = assignmentInput.safeParse(body);
  if (!parsed.success) {
    for (const issue of parsed.error.issues) {
      const field = issue.path[0];
      if (field === 'title' && !problems.title) problems.title = body.title ? 'titleTooLong' : 'titleRequired';
      if (field === 'instructions' && !problems.instructions) problems.instructions = 'instructionsTooLong';
      if (field === 'due_at' && !problems.due) problems.due = 'dueInvalid';
    }
  }
  if (values.due && !problems.due) {
    const at = isoFromDueInput(values.due, zone);
    if (!at) problems.due = 'dueInvalid';
    else if (Date.parse(at) <= now && values.due !== unchangedDue) problems.due = 'duePast';
  }
  return problems;
}

/** Only what changed, as the PATCH body (nothing when nothing changed). */
export function assignmentChanges(before: AssignmentValues, after: AssignmentValues, zone: string = viewerTimeZone()) {
  const a = assignmentBody(before, zone);
  const b = assignmentBody(after, zone);
  const patch: { title?: string; instructions?: string; due_at?: string | null } = {};
  if (a.title !== b.title) patch.title = b.title;
  if (a.instructions !== b.instructions) patch.instructions = b.instructions;
  if (before.due !== after.due) patch.due_at = b.due_at;
  return assignmentPatch.parse(patch);
}

// ---- Files (an attachment or an answer's file) ----

type FileProblem = 'fileEmpty' | 'fileTooLarge';

/** The server checks the bytes; this spares sending a file it is bound to refuse. */
export function fileProblem(file: Pick<File, 'size'> | null): FileProblem | null {
  if (!file) return null;
  if (file.size === 0) return 'fileEmpty';
  if (file.size > assignmentLimits.fileMaxBytes) return 'fileTooLarge';
  return null;
}

/** What the file pickers offer (the server recognises the kinds by their bytes: contract assignmentFileKinds). */
export const acceptedFiles =
  '.pdf,.png,.jpg,.jpeg,.gif,.webp,.zip,.docx,.xlsx,.pptx,.odt,.ods,.odp,.txt,.md,.csv,application/pdf,image/png,image/jpeg,image/gif,image/webp,application/zip,text/plain';

// ---- The student's answer ----

type AnswerProblem = 'answerEmpty' | 'answerTooLong' | FileProblem;

export function answerProblem(text: string, file: Pick<File, 'size'> | null): AnswerProblem | null {
  if (text.length > assignmentLimits.answerMaxLength) return 'answerTooLong';
  const wrongFile = fileProblem(file);
  if (wrongFile) return wrongFile;
  if (!text.trim() && !file) return 'answerEmpty';
  return null;
}

// ---- The teacher's review ----

export interface ReviewValues {
  /** '' for no grade; else 0-100 (NumberInput gives a number, or a string while typing). */
  grade: number | string;
  passed: 'none' | 'pass' | 'fail';
  feedback: string;
}

type ReviewProblem = 'gradeOrPass' | 'gradeRange' | 'feedbackTooLong';

export function reviewBodyOf(values: ReviewValues) {
  const grade = values.grade === '' ? null : Number(values.grade);
  return {
    grade,
    passed: values.passed === 'none' ? null : values.passed === 'pass',
    feedback: values.feedback,
  };
}

export function reviewProblems(values: ReviewValues): Partial<Record<keyof ReviewValues, ReviewProblem>> {
  const problems: Partial<Record<keyof ReviewValues, ReviewProblem>> = {};
  const body = reviewBodyOf(values);
  if (body.grade !== null && (!Number.isInteger(body.grade) || body.grade < 0 || body.grade > 100))
    problems.grade = 'gradeRange';
  if (values.feedback.length > assignmentLimits.feedbackMaxLength) problems.feedback = 'feedbackTooLong';
  if (!problems.grade && !reviewBody.safeParse(body).success && body.grade === null && body.passed === null)
    problems.grade = 'gradeOrPass';
  return problems;
}

/** The review form's starting values from a submission already reviewed (or empty). */
export function reviewValuesOf(submission: {
  grade: number | null;
  passed: boolean | null;
  feedback: string | null;
}): ReviewValues {
  return {
    grade: submission.grade ?? '',
    passed: submission.passed === null ? 'none' : submission.passed ? 'pass' : 'fail',
    feedback: submission.feedback ?? '',
  };
}
