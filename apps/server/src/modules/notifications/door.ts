// The notifications module's one door for the other modules: each event is one call, made in the
// transaction of the change that caused it where there is one (a payment's activation, a refund), so
// the notification exists exactly when the change does. Whom an event concerns is decided by the
// module that owns the event; what to say, in which language, by which channel, is decided here.
import { createHmac } from 'node:crypto';
import { and, eq, sql } from 'drizzle-orm';
import type { Database } from '../../db/client';
import { classSessions, courses, knownDevices } from '../../db/schema/index';
import { payingStudents } from '../courses';
import type { Notice, Notifications } from './service';
import { receiptFacts, receiptMail, type Seller } from './receipts';

type Executor = Pick<Database, 'select' | 'insert' | 'update'>;

/** "Firefox on Linux": what a person recognises of a browser's User-Agent. */
function deviceName(userAgent: string | undefined): string {
  const ua = userAgent ?? '';
  const browser =
    [
      [/Edg\//, 'Edge'],
      [/OPR\//, 'Opera'],
      [/Firefox\//, 'Firefox'],
      [/Chrom(e|ium)\//, 'Chrome'],
      [/Safari\//, 'Safari'],
    ].find(([re]) => (re as RegExp).test(ua))?.[1] ?? 'A browser';
  const system =
    [
      [/Android/, 'Android'],
      [/iPhone|iPad/, 'iOS'],
      [/Windows/, 'Windows'],
      [/Mac OS X|Macintosh/, 'macOS'],
      [/CrOS/, 'ChromeOS'],
      [/Linux/, 'Linux'],
    ].find(([re]) => (re as RegExp).test(ua))?.[1] ?? null;
  return system ? `${browser} (${system})` : (browser as string);
}

/** "ad•••@example.com": enough of an address for its owner to recognise it, not enough to read it off. */
function maskedAddress(address: string): string {
  const at = address.lastIndexOf('@');
  const local = address.slice(0, at);
  return `${local.slice(0, Math.min(2, Math.max(1, local.length - 1)))}•••${address.slice(at)}`;
}

/** A course's name, and its paying students (of one batch when given): whom a course's news concerns. */
async function courseAudience(executor: Pick<Database, 'select'>, courseId: number, batchId: number | null = null) {
  const [course] = await executor.select({ name: courses.name }).from(courses).where(eq(courses.id, courseId));
  if (!course) return null;
  const students = await payingStudents(executor, { courseId, batchId });
  const ids = students.filter((s) => !s.deactivatedAt).map((s) => s.id);
  return { name: course.name, studentIds: [...new Set(ids)].sort((a, b) => a - b) };
}

export function createNotificationsDoor(deps: { db: Database; notifications: Notifications; seller: Seller; origin: () => string; secret: string; now?: () => Date }) {
  const { notifications, db } = deps;
  const now = deps.now ?? (() => new Date());
  // A device is its browser's identity string without its version numbers (a browser or system update,
  // every few weeks, is the same device), kept only as a keyed hash.
  const deviceOf = (userAgent: string) =>
    createHmac('sha256', `mooz-devices:${deps.secret}`)
      .update(userAgent.replace(/\d+(?:[._]\d+)*/g, '#'))
      .digest('base64url');

  return {
    /** Starts delivering what a committed transaction told. */
    kick: () => notifications.kick(),

    /** Any notices a module has worked out itself (see Notice). */
    tell: (executor: Executor, notices: Notice[]) => notifications.tell(executor, notices),

    /** A teacher posted an assignment: the course's students. */
    async assignmentPosted(executor: Executor, assignment: { id: number; courseId: number; title: string }) {
      const audience = await courseAudience(executor, assignment.courseId);
      if (!audience) return;
      await notifications.tell(
        executor,
        audience.studentIds.map((userId) => ({
          userId,
          kind: 'assignment_posted' as const,
          params: { course: audience.name, title: assignment.title, assignment_id: assignment.id },
          link: `/courses/${assignment.courseId}?tab=assignments`,
        })),
      );
    },

    /** A teacher reviewed a student's answer: that student. */
    async answerReviewed(executor: Executor, review: { studentId: number; courseId: number; title: string; assignmentId: number }) {
      const audience = await courseAudience(executor, review.courseId);
      await notifications.tell(executor, [
        {
          userId: review.studentId,
          kind: 'answer_reviewed',
          params: { course: audience?.name ?? '', title: review.title, assignment_id: review.assignmentId },
          link: `/courses/${review.courseId}?tab=assignments`,
        },
      ]);
    },

    /** A certificate was earned or awarded: its student. */
    async certificateIssued(executor: Executor, certificate: { id: string; userId: number; courseId: number }) {
      const audience = await courseAudience(executor, certificate.courseId);
      await notifications.tell(executor, [
        { userId: certificate.userId, kind: 'certificate_issued', params: { course: audience?.name ?? '' }, link: `/certificates/${certificate.id}` },
      ]);
    },

    /** A recording of a course's session is ready: the course's students (of the session's batch when it has one). */
    async recordingAdded(executor: Executor, recording: { id: number; courseId: number; sessionId: number | null; title: string }) {
      const [session] = recording.sessionId === null ? [] : await executor.select({ batchId: classSessions.batchId }).from(classSessions).where(eq(classSessions.id, recording.sessionId));
      const audience = await courseAudience(executor, recording.courseId, session?.batchId ?? null);
      if (!audience) return;
      await notifications.tell(
        executor,
        audience.studentIds.map((userId) => ({
          userId,
          kind: 'recording_added' as const,
          params: { course: audience.name, title: recording.title },
          link: `/recordings/${recording.id}`,
        })),
      );
    },

    /** A subscription just became paid: the buyer's receipt, and the batch's teacher hears of a new student. */
    async paid(executor: Executor, subscriptionId: string) {
      const facts = await receiptFacts(executor, subscriptionId, deps.seller);
      if (!facts) return;
      const mail = await receiptMail(facts, deps.origin(), 'paid');
      await notifications.tell(executor, [
        {
          userId: facts.buyer.id,
          kind: 'payment_received',
          params: { course: facts.courseName, amount: facts.amount, currency: facts.currency, number: facts.receiptNumber },
          link: '/profile#purchases',
          mail,
        },
        {
          userId: facts.teacherId,
          kind: 'student_joined',
          params: { course: facts.courseName, student: facts.buyer.name, start_date: facts.startDate },
          link: `/my-courses/${facts.courseId}/students`,
        },
      ]);
    },

    /** A payment was refunded: the buyer's refund note. */
    async refunded(executor: Executor, subscriptionId: string) {
      const facts = await receiptFacts(executor, subscriptionId, deps.seller);
      if (!facts) return;
      await notifications.tell(executor, [
        {
          userId: facts.buyer.id,
          kind: 'payment_refunded',
          params: { course: facts.courseName, amount: facts.amount, currency: facts.currency, number: facts.receiptNumber },
          link: '/profile#purchases',
          mail: await receiptMail(facts, deps.origin(), 'refunded'),
        },
      ]);
    },

    /** The password was changed (by the person, or by a reset code). Always mailed. */
    passwordChanged: (userId: number) =>
      notifications.tell(db, [{ userId, kind: 'password_changed', params: { at: now().toISOString() }, link: '/profile' }]),

    /**
     * The email address was changed. Always mailed, and to the previous address (notice-mails.ts'
     * mailReader), which is the point: the owner learns of a takeover. The new address is named only
     * partly: the previous one may no longer be the owner's alone.
     */
    emailChanged: (executor: Executor, userId: number, previousEmail: string, newEmail: string) =>
      notifications.tell(executor, [
        { userId, kind: 'email_changed', params: { previous: previousEmail, new: maskedAddress(newEmail), at: now().toISOString() }, link: '/profile' },
      ]),

    /**
     * A sign-in: remembered per device; one from a device never seen is told (not the account's very
     * first, which has nothing to compare with).
     */
    async signedIn(userId: number, userAgent: string | undefined) {
      const device = deviceOf(userAgent ?? '');
      const at = now();
      const fresh = await db.transaction(async (tx) => {
        const [known] = await tx
          .insert(knownDevices)
          .values({ userId, device, firstSeenAt: at, lastSeenAt: at })
          .onConflictDoUpdate({ target: [knownDevices.userId, knownDevices.device], set: { lastSeenAt: at } })
          .returning({ first: knownDevices.firstSeenAt });
        if (known?.first.getTime() !== at.getTime()) return false;
        const [others] = await tx
          .select({ n: sql<number>`count(*)::int` })
          .from(knownDevices)
          .where(and(eq(knownDevices.userId, userId), sql`${knownDevices.device} <> ${device}`));
        if (!others?.n) return false;
        await notifications.tell(tx, [{ userId, kind: 'new_device_login', params: { device: deviceName(userAgent), at: at.toISOString() }, link: '/profile' }]);
        return true;
      });
      if (fresh) notifications.kick();
    },
  };
}

export type NotificationsDoor = ReturnType<typeof createNotificationsDoor>;
