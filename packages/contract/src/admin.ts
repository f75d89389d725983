// The admin area: people, every course, payments and enrollments, the overview and the audit log.
// Lists are pages of `limit` items from `offset` (as search's), with the total before paging.
import { z } from 'zod';
import './zod-messages';
import { userTypes } from './permissions';
import { validationMessages as v } from './messages';
import { recordIdParam, singleLineText } from './primitives';

const search = singleLineText().trim().max(100, 'Use at most 100 characters').optional();
const paging = {
  limit: z.coerce.number().int().min(1).max(100).default(20),
  offset: z.coerce.number().int().min(0).max(100_000).default(0),
};

/** A page of a list: the items asked for and how many there are in all. */
const pageOf = <T extends z.ZodType>(item: T) => z.object({ total: z.number().int(), items: z.array(item) });

export const userIdParams = z.object({ id: recordIdParam() });
export const paymentIdParams = z.object({ id: z.uuid(v.recordId) });

/** `unverified`: signed up, code never entered; `deactivated`: stopped by an admin. */
export const accountStatuses = ['active', 'deactivated', 'unverified'] as const;
export type AccountStatus = (typeof accountStatuses)[number];

export const adminUsersQuery = z.object({
  q: search,
  role: z.enum(userTypes).optional(),
  status: z.enum(accountStatuses).optional(),
  ...paging,
});

export const adminUser = z.object({
  id: z.number().int(),
  email: z.string(),
  first_name: z.string(),
  last_name: z.string(),
  user_type: z.enum(userTypes),
  status: z.enum(accountStatuses),
  date_joined: z.string(),
  deactivated_at: z.string().nullable(),
});
export type AdminUser = z.infer<typeof adminUser>;
export const adminUsersPage = pageOf(adminUser);

export const courseStates = ['published', 'unpublished', 'archived'] as const;
export const adminCoursesQuery = z.object({
  q: search,
  state: z.enum(courseStates).optional(),
  ...paging,
});

export const adminCourse = z.object({
  id: z.number().int(),
  name: z.string(),
  teacher: z.object({ id: z.number().int(), name: z.string(), email: z.string() }),
  price: z.number().int(),
  currency: z.string(),
  published: z.boolean(),
  archived_at: z.string().nullable(),
  /** Students with an active (paid, not refunded) subscription. */
  students: z.number().int(),
  batches: z.number().int(),
  created_at: z.string(),
});
export type AdminCourse = z.infer<typeof adminCourse>;
export const adminCoursesPage = pageOf(adminCourse);

/**
 * A payment as admins see it: `created` (ordered, not paid yet), `failed` (the provider said its latest
 * payment failed, and why), `abandoned` (created and left unpaid for `paymentRules.abandonedAfterHours`),
 * `paid`, `refunded` (marked here).
 */
export const paymentStatuses = ['created', 'failed', 'abandoned', 'paid', 'refunded'] as const;
export type PaymentStatus = (typeof paymentStatuses)[number];
export const paymentRules = {
  /** A created order nobody paid (nor tried again) for this long is abandoned. */
  abandonedAfterHours: 24,
  /** The longest failure reason kept from the provider. */
  failureReasonMaxLength: 500,
} as const;
export const adminPaymentsQuery = z.object({
  /** A student's name or email, a course's name, or an order or payment id. */
  q: search,
  status: z.enum(paymentStatuses).optional(),
  ...paging,
});

export const adminPayment = z.object({
  id: z.string(),
  student: z.object({ id: z.number().int(), name: z.string(), email: z.string() }),
  course: z.object({ id: z.number().int(), name: z.string() }),
  batch: z.object({
    /** Null for subscriptions made before batches existed. */
    id: z.number().int().nullable(),
    kind: z.enum(['weekdays', 'weekends']),
    start_date: z.string(),
    end_date: z.string(),
    time: z.string().nullable(),
    saturday_time: z.string().nullable(),
    sunday_time: z.string().nullable(),
  }),
  status: z.enum(paymentStatuses),
  /** Minor units. */
  amount: z.number().int(),
  currency: z.string(),
  order_id: z.string(),
  payment_id: z.string().nullable(),
  created_at: z.string(),
  activated_at: z.string().nullable(),
  refunded_at: z.string().nullable(),
  /** When a `failed` payment failed, and the provider's reason (null when it gave none). Null for other statuses. */
  failed_at: z.string().nullable(),
  failure_reason: z.string().nullable(),
});
export type AdminPayment = z.infer<typeof adminPayment>;
export const adminPaymentsPage = pageOf(adminPayment);

export const adminOverview = z.object({
  users: z.object({
    student: z.number().int(),
    teacher: z.number().int(),
    admin: z.number().int(),
    deactivated: z.number().int(),
    unverified: z.number().int(),
  }),
  /** Active subscriptions activated this calendar month (UTC), summed per currency, in minor units. */
  revenue_this_month: z.array(z.object({ currency: z.string(), amount: z.number().int(), payments: z.number().int() })),
  /** `YYYY-MM` of that month. */
  month: z.string(),
  /** Batches running today with at least one seat taken. */
  active_batches: z.array(
    z.object({
      id: z.number().int(),
      course: z.object({ id: z.number().int(), name: z.string() }),
      kind: z.enum(['weekdays', 'weekends']),
      start_date: z.string(),
      end_date: z.string(),
      seats_taken: z.number().int(),
      capacity: z.number().int(),
    }),
  ),
  counts: z.object({
    courses: z.number().int(),
    published_courses: z.number().int(),
    active_subscriptions: z.number().int(),
    pending_subscriptions: z.number().int(),
    refunded_subscriptions: z.number().int(),
  }),
});
export type AdminOverview = z.infer<typeof adminOverview>;

/** What the admin area's own actions are called in the log; other modules add theirs (`course.archive`…). */
export const auditActions = {
  createUser: 'user.create',
  deactivateUser: 'user.deactivate',
  reactivateUser: 'user.reactivate',
  refundPayment: 'payment.refund',
} as const;

export const auditQuery = z.object({
  action: singleLineText().trim().max(64, 'Use at most 64 characters').optional(),
  ...paging,
});

export const auditEntry = z.object({
  id: z.number().int(),
  actor: z.object({ id: z.number().int(), name: z.string(), email: z.string() }),
  action: z.string(),
  target_type: z.string(),
  target_id: z.string(),
  details: z.record(z.string(), z.unknown()),
  created_at: z.string(),
});
export type AuditEntry = z.infer<typeof auditEntry>;
export const auditPage = pageOf(auditEntry);
