// Assignments: a course's teacher sets work (title, instructions, due date, an optional attachment);
// a student of the course submits an answer (text and/or one file); the teacher reviews it (a grade
// 0-100 or pass/fail, and feedback). A submission counts as completed once it is submitted; a review
// is not needed for it to count (the teacher's pace must not hold back a student's figures).
import { z } from 'zod';
import { multiLineText, recordIdParam, singleLineText } from './primitives';

export const assignmentLimits = {
  titleMaxLength: 200,
  instructionsMaxLength: 10_000,
  answerMaxLength: 20_000,
  feedbackMaxLength: 5_000,
  /**
   * One attachment or submitted file, at most this many bytes: 20 MB in the decimal units the screens
   * speak (lib/media-format.ts), so the form says "20 MB" (20 MiB read "21 MB").
   */
  fileMaxBytes: 20_000_000,
} as const;

/**
 * The files an assignment or an answer may carry, recognised by their bytes (not by their name):
 * PDF, PNG, JPEG, GIF, WebP, ZIP (so DOCX, XLSX, PPTX and ODF too) and plain UTF-8 text.
 */
export const assignmentFileKinds = ['pdf', 'png', 'jpeg', 'gif', 'webp', 'zip', 'text'] as const;
/** The multipart field carrying the file (teacher's attachment and student's answer alike). */
export const assignmentFileField = 'file';
/** The multipart field carrying a submission's text answer. */
export const submissionTextField = 'text';

export const assignmentIdParams = z.object({ id: recordIdParam() });
export const submissionIdParams = z.object({ id: recordIdParam() });

/** A stored file as a response shows it: a signed, expiring link that needs no bearer token. */
export const attachedFile = z.object({
  name: z.string(),
  mime_type: z.string(),
  size_bytes: z.number().int(),
  url: z.string(),
});
export type AttachedFile = z.infer<typeof attachedFile>;

export const submissionStatuses = ['submitted', 'reviewed'] as const;

export const submission = z.object({
  id: z.number().int(),
  assignment_id: z.number().int(),
  student_id: z.number().int(),
  student_name: z.string(),
  text: z.string(),
  file: attachedFile.nullable(),
  status: z.enum(submissionStatuses),
  grade: z.number().int().nullable(),
  passed: z.boolean().nullable(),
  feedback: z.string().nullable(),
  submitted_at: z.string(),
  reviewed_at: z.string().nullable(),
  /** After the due date (the answer still counts; the teacher sees it was late). */
  late: z.boolean(),
});
export type Submission = z.infer<typeof submission>;

export const assignment = z.object({
  id: z.number().int(),
  course_id: z.number().int(),
  course_name: z.string(),
  title: z.string(),
  instructions: z.string(),
  /** ISO 8601 instant, or null when there is no due date; screens show it in the viewer's zone. */
  due_at: z.string().nullable(),
  attachment: attachedFile.nullable(),
  created_at: z.string(),
  updated_at: z.string(),
  /** The caller's own submission (students), or null. */
  my_submission: submission.nullable(),
  /** For the course's teacher and admins: submissions received, and those waiting for review. */
  submissions_count: z.number().int().nullable(),
  waiting_review_count: z.number().int().nullable(),
  /** Whether the caller may edit it, delete it and review its submissions. */
  can_manage: z.boolean(),
});
export type Assignment = z.infer<typeof assignment>;

const dueAt = z.iso.datetime({ offset: true, message: 'Use an ISO 8601 date and time' }).nullable();

export const assignmentInput = z
  .object({
    title: singleLineText().trim().min(1, 'Required').max(assignmentLimits.titleMaxLength),
    instructions: multiLineText().max(assignmentLimits.instructionsMaxLength).default(''),
    due_at: dueAt.optional(),
  })
  .strict();

export const assignmentPatch = z
  .object({
    title: singleLineText().trim().min(1, 'Required').max(assignmentLimits.titleMaxLength),
    instructions: multiLineText().max(assignmentLimits.instructionsMaxLength),
    due_at: dueAt,
  })
  .partial()
  .strict();

/** The teacher's view of one assignment: every student of the course, with their submission or none. */
export const assignmentSubmissions = z.object({
  assignment: assignment,
  submissions: z.array(submission),
  /** Students of the course who have not submitted. */
  missing: z.array(z.object({ student_id: z.number().int(), student_name: z.string() })),
});

export const reviewBody = z
  .object({
    grade: z.number().int().min(0).max(100).nullable().optional(),
    passed: z.boolean().nullable().optional(),
    feedback: multiLineText().max(assignmentLimits.feedbackMaxLength).default(''),
  })
  .strict()
  .refine((review) => review.grade != null || review.passed != null, {
    message: 'Give a grade or a pass',
    path: ['grade'],
  });
