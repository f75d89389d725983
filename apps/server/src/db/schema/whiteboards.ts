// The whiteboards of live classes: how each room's board stands, the Yjs updates of each of
// its pages (merged into one row now and then), and the pages saved as PNG for the session's students.
import { customType, index, integer, boolean, jsonb, pgTable, primaryKey, text, timestamp } from 'drizzle-orm/pg-core';
import { classSessions } from './classes';

/** Raw bytes: PGlite gives a Uint8Array, node-postgres a Buffer (one). */
const bytea = customType<{ data: Uint8Array; driverData: Uint8Array }>({ dataType: () => 'bytea' });

export const whiteboardAccessValues = ['everyone', 'nobody', 'named'] as const;

export const whiteboards = pgTable('whiteboards', {
  roomId: text('room_id').primaryKey(),
  /** The class session whose room it is; null for an ad hoc meeting room. */
  sessionId: integer('session_id').references(() => classSessions.id, { onDelete: 'cascade' }),
  shown: boolean('shown').notNull().default(false),
  pages: integer('pages').notNull().default(1),
  page: integer('page').notNull().default(0),
  access: text('access', { enum: whiteboardAccessValues }).notNull().default('nobody'),
  /** With `named`: the accounts that may draw. */
  writers: jsonb('writers').$type<number[]>().notNull().default([]),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

export const whiteboardUpdates = pgTable(
  'whiteboard_updates',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    roomId: text('room_id')
      .notNull()
      .references(() => whiteboards.roomId, { onDelete: 'cascade' }),
    page: integer('page').notNull(),
    update: bytea('update').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('whiteboard_updates_page_idx').on(t.roomId, t.page, t.id)],
);

export const whiteboardSnapshots = pgTable(
  'whiteboard_snapshots',
  {
    roomId: text('room_id')
      .notNull()
      .references(() => whiteboards.roomId, { onDelete: 'cascade' }),
    page: integer('page').notNull(),
    png: bytea('png').notNull(),
    savedAt: timestamp('saved_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.roomId, t.page] })],
);
