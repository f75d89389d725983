// Breakout rooms of live classes: each split a host made of a main room, and the group each account was
// placed in (one per account and split: the primary key refuses a second).
import { index, integer, pgTable, primaryKey, text, timestamp } from 'drizzle-orm/pg-core';
import { users } from './accounts';
import { classSessions } from './classes';

export const breakoutModeValues = ['random', 'manual', 'choose'] as const;

export const breakouts = pgTable(
  'breakouts',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    /** The main room. */
    roomId: text('room_id').notNull(),
    /** The class session whose room it is; null for an ad hoc meeting room. */
    sessionId: integer('session_id').references(() => classSessions.id, { onDelete: 'cascade' }),
    openedBy: integer('opened_by').references(() => users.id, { onDelete: 'set null' }),
    mode: text('mode', { enum: breakoutModeValues }).notNull(),
    groups: integer('groups').notNull(),
    openedAt: timestamp('opened_at', { withTimezone: true }).notNull().defaultNow(),
    /** A timed split's end: its groups take no one after it. */
    endsAt: timestamp('ends_at', { withTimezone: true }),
    closedAt: timestamp('closed_at', { withTimezone: true }),
  },
  (t) => [index('breakouts_room_idx').on(t.roomId, t.id)],
);

export const breakoutMembers = pgTable(
  'breakout_members',
  {
    breakoutId: integer('breakout_id')
      .notNull()
      .references(() => breakouts.id, { onDelete: 'cascade' }),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** The name they had in the room. */
    userName: text('user_name').notNull(),
    /** From 0. */
    groupIndex: integer('group_index').notNull(),
  },
  (t) => [primaryKey({ columns: [t.breakoutId, t.userId] }), index('breakout_members_user_idx').on(t.userId)],
);
