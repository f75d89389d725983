// Recordings (contract "Classes, sessions, recordings"): the grouped and per-course lists, one
// recording for the player, watch progress, and the live recording protocol by which the teacher's
// browser sends a class as it is recorded.
//
// Live recordings use a resumable protocol of our own, modelled on tus 1.0 with deferred length but
// on the API's own conventions (bearer token, JSON envelope, declared endpoints): start → append
// chunks at an offset (the server answers the offset it holds; a client that lost an answer asks for
// it and resumes there) → finish. A recording whose chunks stop (closed tab, crash, lost network) is
// finished by the server with what it received, and listed; its chunks are kept for resumableSeconds
// after the last one, so that its recorder (back after a stall, a reload) can still send the rest at the
// offset held: the recording goes on, and its file is made again with everything.
import { z } from 'zod';
import { recordId, recordIdParam, singleLineText } from './primitives';

export const recordingLimits = {
  /** The recorder sends what MediaRecorder gave it every this many milliseconds. */
  chunkIntervalMs: 2000,
  /** The largest chunk one append may carry. */
  chunkMaxBytes: 16 * 1024 * 1024,
  /** A live recording without a chunk for this long is finished by the server with what it has (default of RECORDING_STALL_SECONDS). */
  staleAfterSeconds: 30,
  /**
   * How long after its last chunk a live recording still takes the rest from its recorder (default of
   * RECORDING_RESUMABLE_SECONDS): the longest stall that loses nothing.
   */
  resumableSeconds: 24 * 60 * 60,
  /** Signed playback links live this long (the contract: at least an hour). */
  linkTtlSeconds: 4 * 60 * 60,
  /** The player reports progress this often while playing. */
  progressIntervalMs: 15_000,
  /** Spans one progress report may carry. */
  progressMaxSpans: 50,
  titleMaxLength: 200,
} as const;

export const recordingGroup = z.object({
  course_id: z.number().int(),
  course_name: z.string(),
  recordings_count: z.number().int(),
  latest_at: z.string(),
});
export type RecordingGroup = z.infer<typeof recordingGroup>;

export const recording = z.object({
  id: z.number().int(),
  title: z.string(),
  /** null for a recording of an ad hoc meeting room (listed with `?meetings=true`). */
  course_id: z.number().int().nullable(),
  session_id: z.number().int().nullable(),
  room_id: z.string(),
  /** Signed, expiring, streams with HTTP Range, needs no bearer token. */
  url: z.string(),
  /** The same bytes as an attachment. */
  download_url: z.string(),
  /** When url and download_url stop working. */
  url_expires_at: z.string(),
  mime_type: z.string(),
  size_bytes: z.number().int(),
  duration_seconds: z.number(),
  created_at: z.string(),
  /** Extensions of the contract's fields, for the lists and the player. */
  course_name: z.string().nullable(),
  session_title: z.string().nullable(),
  recorded_by_name: z.string(),
  /** The caller's own progress: where to resume, and the distinct seconds watched. */
  position_seconds: z.number(),
  watched_seconds: z.number(),
  /** Whether the caller may delete it (its course's teacher, its recorder, an admin). */
  can_delete: z.boolean(),
});
export type Recording = z.infer<typeof recording>;

const flag = z
  .union([z.boolean(), z.enum(['true', 'false', '1', '0'])])
  .transform((value) => value === true || value === 'true' || value === '1');

export const recordingsQuery = z.object({
  course_id: recordIdParam().optional(),
  /** The caller's recordings of ad hoc meeting rooms (admins: everyone's). */
  meetings: flag.optional(),
});

/** Either the grouped list or one course's (or the meetings') recordings. */
export const recordingsData = z.union([z.array(recordingGroup), z.array(recording)]);

export const recordingIdParams = z.object({ id: recordIdParam() });
/** A room id as a path or body carries it: one line of text (a NUL could not even be looked up). */
const roomIdText = () => singleLineText().trim().min(1).max(128);
export const roomIdParams = z.object({ roomId: roomIdText() });

/** What the player reports: where it is, and the spans played since its last report. */
export const watchProgressBody = z
  .object({
    position_seconds: z.number().min(0).max(7 * 24 * 3600),
    spans: z
      .array(z.tuple([z.number().min(0), z.number().min(0)]).refine(([from, to]) => to >= from, 'A span ends after it starts'))
      .max(recordingLimits.progressMaxSpans),
  })
  .strict();
export const watchProgress = z.object({ position_seconds: z.number(), watched_seconds: z.number() });

export const startLiveRecordingBody = z
  .object({
    room_id: roomIdText(),
    title: singleLineText().trim().min(1).max(recordingLimits.titleMaxLength).optional(),
  })
  .strict();

/** stopped: stopped with nothing playable yet (its recorder may still send the rest). */
export const liveRecordingStatuses = ['recording', 'processing', 'ready', 'stopped'] as const;
export const liveRecording = z.object({
  id: z.number().int(),
  room_id: z.string(),
  status: z.enum(liveRecordingStatuses),
  /** The bytes the server holds: the next append starts here. */
  upload_offset: z.number().int(),
  chunk_max_bytes: z.number().int(),
  /**
   * Whether its recorder may still append, whatever the status: true until it is finished with
   * `complete`, or no chunk came for resumableSeconds. Once false, a chunk is 409.
   */
  accepts_chunks: z.boolean(),
});

/** finishLive's query: `complete` says every chunk was sent (its kept chunks can go); without it, more may follow. */
export const finishLiveRecordingQuery = z.object({ complete: flag.optional() });
export type LiveRecording = z.infer<typeof liveRecording>;

/** Appends are raw bytes with this content type and the offset they start at in this header. */
export const liveChunkContentType = 'application/offset+octet-stream';
export const uploadOffsetHeader = 'upload-offset';

/** Who is recording a room, as every member is told (`action:recording_state`). */
export const roomRecording = z.object({
  id: recordId(),
  started_by: z.number().int(),
  started_by_name: z.string(),
  started_at: z.string(),
});
export type RoomRecording = z.infer<typeof roomRecording>;

/** The multipart upload's file field (contract: `recording`, named `{roomId}-{userId}.webm`). */
export const uploadFieldName = 'recording';
