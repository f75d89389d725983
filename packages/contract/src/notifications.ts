// Notifications: what happened that concerns someone, in the app (a bell with an unread
// count, a list, live over the socket) and by mail (per person and per kind, on or off; security and
// payment mails always go). Receipts of payments are listed with the caller's purchases.
import { z } from 'zod';
import { recordIdParam } from './primitives';

/** Every kind of notification. */
export const notificationKinds = [
  'assignment_posted',
  'answer_reviewed',
  'certificate_issued',
  'class_moved',
  'class_cancelled',
  'class_starting',
  'recording_added',
  'student_joined',
  'payment_received',
  'payment_refunded',
  'password_changed',
  'email_changed',
  'new_device_login',
] as const;
export const notificationKind = z.enum(notificationKinds);
export type NotificationKind = z.infer<typeof notificationKind>;

/** Mailed whatever the preferences say: the account's security, and the receipts of its money. */
export const alwaysMailedKinds: readonly NotificationKind[] = ['password_changed', 'email_changed', 'new_device_login', 'payment_received', 'payment_refunded'];
/** The kinds a person may turn off by mail, in the order the profile lists them. */
export const optionalMailKinds = notificationKinds.filter((kind) => !alwaysMailedKinds.includes(kind));
export const mayTurnOffMail = (kind: NotificationKind) => !alwaysMailedKinds.includes(kind);

export const notificationRules = {
  /** One page of the list. */
  pageSize: 20,
  /** The longest page a caller may ask for. */
  maxPageSize: 50,
  /**
   * Mail volume: after a notification mail, the next one to the same person waits until this long has
   * passed, and then carries everything that came meanwhile as one digest.
   */
  digestWindowSeconds: 300,
} as const;

/**
 * One notification. `params` are the facts its words are made from (course, title, name…), so the web
 * app writes it in the reader's language; `link` is the app's path it leads to.
 */
export const notification = z.object({
  id: z.number().int(),
  kind: notificationKind,
  params: z.record(z.string(), z.union([z.string(), z.number()])),
  link: z.string().nullable(),
  read: z.boolean(),
  created_at: z.string(),
});
export type Notification = z.infer<typeof notification>;

export const notificationsQuery = z.object({
  /** Older than this id (the last one of the page before). */
  before: recordIdParam().optional(),
  limit: z.coerce.number().int().min(1).max(notificationRules.maxPageSize).default(notificationRules.pageSize),
});

export const notificationsPage = z.object({
  items: z.array(notification),
  unread: z.number().int(),
  /** Whether older ones exist beyond this page. */
  more: z.boolean(),
});
export type NotificationsPage = z.infer<typeof notificationsPage>;

export const unreadCount = z.object({ unread: z.number().int() });
export const notificationIdParams = z.object({ id: recordIdParam() });

/** By mail, per kind: on or off; the always-mailed kinds are listed as on and locked. */
export const mailPreference = z.object({ kind: notificationKind, mail: z.boolean(), locked: z.boolean() });
export const mailPreferences = z.array(mailPreference);
export type MailPreference = z.infer<typeof mailPreference>;
export const mailPreferencesBody = z
  .object({
    preferences: z
      .array(z.object({ kind: notificationKind, mail: z.boolean() }).strict())
      .min(1)
      .max(notificationKinds.length),
  })
  .strict();

/** The one-click unsubscribe of a mail (RFC 8058): its signed token names the person and the kind. */
export const unsubscribeQuery = z.object({ token: z.string().min(1).max(300) });
export const unsubscribed = z.object({ kind: notificationKind });

/** A purchase as its buyer sees it in the profile, with its receipt. */
export const purchase = z.object({
  id: z.string(),
  course_id: z.number().int(),
  course_name: z.string(),
  batch: z.enum(['weekdays', 'weekends']),
  start_date: z.string(),
  end_date: z.string(),
  amount: z.number().int(),
  currency: z.string(),
  status: z.enum(['paid', 'refunded']),
  order_id: z.string(),
  payment_id: z.string().nullable(),
  paid_at: z.string().nullable(),
  refunded_at: z.string().nullable(),
  /** The receipt's number, as printed on it. */
  receipt_number: z.string(),
});
export type Purchase = z.infer<typeof purchase>;
export const purchaseIdParams = z.object({ id: z.uuid() });

/** The socket's news for one person: a notification arrived (and the unread count after it). */
export interface NotificationEvent {
  notification: Notification;
  unread: number;
}
