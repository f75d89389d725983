// Recordings of classes and meetings, and how far each person has watched them.
import { sql } from 'drizzle-orm';
import { bigint, boolean, index, integer, jsonb, pgTable, real, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { users } from './accounts';
import { classSessions } from './classes';
import { courses } from './courses';

/**
 * stopped: a live recording stopped with nothing playable yet, whose recorder may still send the rest
 * (its chunks are kept, modules/recordings/live.ts); it is deleted if nothing comes.
 */
export const recordingStatuses = ['recording', 'processing', 'ready', 'stopped'] as const;
export type RecordingStatus = (typeof recordingStatuses)[number];
export const recordingSources = ['live', 'upload'] as const;

export const recordings = pgTable(
  'recordings',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    /** The class session recorded; null for an ad hoc meeting room. */
    sessionId: integer('session_id').references(() => classSessions.id, { onDelete: 'set null' }),
    /** The session's course (kept when the session goes); null for an ad hoc meeting room. */
    courseId: integer('course_id').references(() => courses.id, { onDelete: 'cascade' }),
    roomId: text('room_id').notNull(),
    title: text('title').notNull(),
    /** Who recorded or uploaded it. */
    recordedBy: integer('recorded_by')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    source: text('source', { enum: recordingSources }).notNull(),
    /**
     * recording: chunks still arriving; processing: being made seekable; ready: made; stopped: see
     * recordingStatuses. Listed and playable once it has a file (storageKey), whatever its status.
     */
    status: text('status', { enum: recordingStatuses }).notNull(),
    /** The playable object's key in the recording storage (set once ready). */
    storageKey: text('storage_key'),
    mimeType: text('mime_type').notNull().default('video/webm'),
    /** The file's size (0 until it has one). */
    sizeBytes: bigint('size_bytes', { mode: 'number' }).notNull().default(0),
    /** Live recordings: the bytes of chunks received, where the next append starts. */
    uploadOffset: bigint('upload_offset', { mode: 'number' }).notNull().default(0),
    /** Live recordings: the upload offset its file was made from (null: none made yet). */
    madeFromBytes: bigint('made_from_bytes', { mode: 'number' }),
    /**
     * Live recordings: its chunks are kept and its recorder may still append (after a stall, a reload,
     * a lost network), until it finishes saying it sent everything or no chunk came for the resume window.
     */
    acceptsChunks: boolean('accepts_chunks').notNull().default(false),
    /** Live recordings: stopped only because its chunks stopped coming; its recorder's next chunk reopens it. */
    stalled: boolean('stalled').notNull().default(false),
    durationSeconds: real('duration_seconds').notNull().default(0),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    /** The last chunk of a live recording: one silent for too long is finalised by the sweeper. */
    lastChunkAt: timestamp('last_chunk_at', { withTimezone: true }),
    readyAt: timestamp('ready_at', { withTimezone: true }),
  },
  (t) => [
    index('recordings_course_idx').on(t.courseId, t.createdAt),
    index('recordings_room_idx').on(t.roomId),
    index('recordings_status_idx').on(t.status),
    // Search by title; each row indexed at once (fastupdate off, see users_name_trgm_idx).
    index('recordings_title_trgm_idx').using('gin', sql`${t.title} gin_trgm_ops`).with({ fastupdate: false }),
    // One live recording per room at a time.
    uniqueIndex('recordings_one_live_per_room_idx').on(t.roomId).where(sql`${t.status} = 'recording'`),
  ],
);

export const recordingViews = pgTable(
  'recording_views',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    recordingId: integer('recording_id')
      .notNull()
      .references(() => recordings.id, { onDelete: 'cascade' }),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** Where the viewer stopped, to resume there. */
    positionSeconds: real('position_seconds').notNull().default(0),
    /** The spans of the video watched, merged: [[from, to], ...] in seconds, sorted and disjoint. */
    watchedSpans: jsonb('watched_spans').$type<Array<[number, number]>>().notNull().default([]),
    /** The total length of watchedSpans: re-watching or seeking never adds to it. */
    watchedSeconds: real('watched_seconds').notNull().default(0),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('recording_views_user_recording_idx').on(t.recordingId, t.userId), index('recording_views_user_idx').on(t.userId, t.updatedAt)],
);
