// Certificates: earned at a batch's end by attending or watching enough of its sessions (the share is
// one constant, below), or awarded by the course's teacher or an admin by hand. Each has a PDF made by
// the server and a public verification page, /certificates/{id}, that anyone can open.
import { z } from 'zod';
import type { UserType } from './permissions';
import { multiLineText, recordId, singleLineText } from './primitives';

export const certificateRules = {
  /** A student whose batch has ended earns the certificate with at least this share of its sessions attended or watched. */
  earnedShare: 0.75,
  /** The longest reason an admin gives for awarding a certificate before the student's batch has ended. */
  earlyReasonMaxLength: 500,
} as const;

/**
 * By hand, a certificate is for a student whose batch has ended (its last day is before today in the
 * course's time zone, the rule earned certificates follow too); only an admin may award one earlier,
 * giving a reason that the audit log keeps.
 */
export const mayAwardEarly = (userType: UserType | string | undefined) => userType === 'admin';

/** Certificate ids are random, unguessable and readable aloud: this many Crockford base32 characters. */
export const certificateIdLength = 16;
export const certificateIdParams = z.object({
  id: singleLineText().trim().min(1).max(64),
});

/** As the student dashboard lists it (contract: id, course_name, issued_at, url). */
export const certificateSummary = z.object({
  id: z.string(),
  course_name: z.string(),
  issued_at: z.string(),
  /** The PDF (public, by the certificate's id). */
  url: z.string(),
  /** The public verification page of the web app, to share. */
  verify_url: z.string(),
});
export type CertificateSummary = z.infer<typeof certificateSummary>;

export const certificate = certificateSummary.extend({
  student_name: z.string(),
  teacher_name: z.string(),
  course_id: z.number().int(),
  kind: z.enum(['earned', 'awarded']),
  start_date: z.string().nullable(),
  end_date: z.string().nullable(),
});
export type Certificate = z.infer<typeof certificate>;

/** The public verification: what the certificate says, and whether it stands. */
export const certificateVerification = z.object({
  id: z.string(),
  genuine: z.boolean(),
  /** The reason a genuine id is no longer valid. */
  revoked: z.boolean(),
  student_name: z.string(),
  course_name: z.string(),
  teacher_name: z.string(),
  start_date: z.string().nullable(),
  end_date: z.string().nullable(),
  issued_at: z.string(),
  url: z.string(),
});
export type CertificateVerification = z.infer<typeof certificateVerification>;

/** A teacher or admin awards a course's certificate to one of its students by hand (`reason`: see mayAwardEarly). */
export const awardCertificateBody = z
  .object({
    student_id: recordId(),
    reason: multiLineText()
      .trim()
      .min(1, 'Required')
      .max(certificateRules.earlyReasonMaxLength, `Use at most ${certificateRules.earlyReasonMaxLength} characters`)
      .optional(),
  })
  .strict();
export type AwardCertificateBody = z.input<typeof awardCertificateBody>;
