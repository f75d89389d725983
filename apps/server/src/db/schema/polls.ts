// Polls and quizzes of live classes: each poll a host opened in a room, and each account's one answer.
// A graded poll of a class session counts on its students' dashboards.
import { boolean, index, integer, jsonb, pgTable, primaryKey, text, timestamp } from 'drizzle-orm/pg-core';
import { users } from './accounts';
import { classSessions } from './classes';

export const pollKindValues = ['single', 'multiple', 'text'] as const;

export const polls = pgTable(
  'polls',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    roomId: text('room_id').notNull(),
    /** The class session whose room it is; null for an ad hoc meeting room. */
    sessionId: integer('session_id').references(() => classSessions.id, { onDelete: 'cascade' }),
    /** Who opened it: a host of the room, who may download its answers. */
    openedBy: integer('opened_by').references(() => users.id, { onDelete: 'set null' }),
    question: text('question').notNull(),
    kind: text('kind', { enum: pollKindValues }).notNull(),
    options: jsonb('options').$type<string[]>().notNull(),
    anonymous: boolean('anonymous').notNull(),
    graded: boolean('graded').notNull(),
    correct: jsonb('correct').$type<number[]>().notNull(),
    openedAt: timestamp('opened_at', { withTimezone: true }).notNull().defaultNow(),
    /** A timed poll's end; answers after it are refused. */
    closesAt: timestamp('closes_at', { withTimezone: true }),
    closedAt: timestamp('closed_at', { withTimezone: true }),
    resultsShown: boolean('results_shown').notNull().default(false),
  },
  (t) => [index('polls_room_idx').on(t.roomId, t.id), index('polls_session_idx').on(t.sessionId)],
);

export const pollAnswers = pgTable(
  'poll_answers',
  {
    pollId: integer('poll_id')
      .notNull()
      .references(() => polls.id, { onDelete: 'cascade' }),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** The name they had in the room. */
    userName: text('user_name').notNull(),
    choices: jsonb('choices').$type<number[]>().notNull(),
    text: text('text').notNull(),
    answeredAt: timestamp('answered_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.pollId, t.userId] }), index('poll_answers_user_idx').on(t.userId)],
);
