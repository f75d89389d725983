// Notifications (modules/notifications): one row per person and event, read or not, and its mail's
// state; who turned which kind of mail off; and the devices an account has signed in from, so a login
// from a new one is told.
import { sql } from 'drizzle-orm';
import { index, integer, jsonb, pgTable, primaryKey, text, timestamp } from 'drizzle-orm/pg-core';
import { notificationKinds } from '@mooz/contract/notifications';
import { users } from './accounts';

export const notifications = pgTable(
  'notifications',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    kind: text('kind', { enum: notificationKinds }).notNull(),
    /** The facts its words are made from, in the reader's language, by the web app and the mail. */
    params: jsonb('params').$type<Record<string, string | number>>().notNull(),
    /** The app's path it leads to. */
    link: text('link'),
    readAt: timestamp('read_at', { withTimezone: true }),
    /**
     * `pending`: to be mailed (alone, or in the next digest); `sent`; `off`: the person turned mail of
     * this kind off; `none`: another mail already tells it (a receipt, a session's own mail).
     */
    mail: text('mail', { enum: ['pending', 'sent', 'off', 'none'] }).notNull(),
    mailedAt: timestamp('mailed_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('notifications_user_idx').on(t.userId, t.id),
    index('notifications_unread_idx').on(t.userId).where(sql`${t.readAt} is null`),
    index('notifications_mail_pending_idx').on(t.userId).where(sql`${t.mail} = 'pending'`),
  ],
);

/** A kind of mail a person turned off (no row: on). */
export const notificationMailOff = pgTable(
  'notification_mail_off',
  {
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    kind: text('kind', { enum: notificationKinds }).notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.kind] })],
);

/** Devices an account has signed in from: a keyed hash of the browser's identity, never the string. */
export const knownDevices = pgTable(
  'known_devices',
  {
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    device: text('device').notNull(),
    firstSeenAt: timestamp('first_seen_at', { withTimezone: true }).notNull().defaultNow(),
    lastSeenAt: timestamp('last_seen_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.device] })],
);

