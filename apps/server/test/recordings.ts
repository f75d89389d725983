// Helpers for tests that need recordings: a ready recording written straight into the database with its
// bytes in the app's storage, the WebM fixtures recorded by Chromium's MediaRecorder, and multipart
// bodies as a browser's FormData sends them.
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { Readable } from 'node:stream';
import type { TestApp } from './app';
import { recordings } from '../src/db/schema/index';
import { writeSeekableWebm } from '../src/modules/recordings/webm';

/** A real MediaRecorder WebM (3 s of VP8 + Opus, no duration, no cues), as a browser uploads it. */
export const webmFixture = () => readFileSync(path.join(import.meta.dirname, 'fixtures/mediarecorder-3s.webm'));

/** The first bytes of a PNG image: what a file named .webm may really be. */
export const pngBytes = () =>
  Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0x0d, 0x49, 0x48, 0x44, 0x52]), Buffer.alloc(4096, 7)]);

/**
 * A ready recording of `courseId`'s session (or of an ad hoc room when courseId is null), its bytes
 * stored under its key. `createdAt` orders lists.
 */
export async function readyRecording(
  t: TestApp,
  options: {
    recordedBy: number;
    courseId?: number | null;
    sessionId?: number | null;
    title?: string;
    durationSeconds?: number;
    createdAt?: Date;
    status?: 'recording' | 'processing' | 'ready';
    bytes?: Buffer;
    /** Whether it has its file: by default only a ready one (a live one made again, or reopened, keeps its file). */
    withFile?: boolean;
  },
) {
  const bytes = options.bytes ?? webmFixture();
  const key = (options.withFile ?? (options.status ?? 'ready') === 'ready') ? `recordings/test-${randomUUID()}.webm` : null;
  if (key) await t.app.storage.put(key, Readable.from([bytes]), 'video/webm');
  const [row] = await t.db
    .insert(recordings)
    .values({
      courseId: options.courseId ?? null,
      sessionId: options.sessionId ?? null,
      roomId: randomUUID(),
      title: options.title ?? 'A recording',
      recordedBy: options.recordedBy,
      source: 'upload',
      status: options.status ?? 'ready',
      storageKey: key,
      sizeBytes: bytes.length,
      durationSeconds: options.durationSeconds ?? 3,
      ...(options.createdAt && { createdAt: options.createdAt }),
    })
    .returning();
  return row!;
}

export interface FormPart {
  name: string;
  value: string | Buffer;
  /** Makes it a file part. */
  filename?: string;
  contentType?: string;
}

/** A multipart/form-data body and its content type, as FormData would send these parts. */
export function multipartBody(parts: FormPart[], boundary = `----mooz${randomUUID().replaceAll('-', '')}`) {
  const chunks: Buffer[] = [];
  for (const part of parts) {
    let head = `--${boundary}\r\nContent-Disposition: form-data; name="${part.name}"`;
    if (part.filename !== undefined) head += `; filename="${part.filename}"\r\nContent-Type: ${part.contentType ?? 'application/octet-stream'}`;
    chunks.push(Buffer.from(`${head}\r\n\r\n`), Buffer.isBuffer(part.value) ? part.value : Buffer.from(part.value), Buffer.from('\r\n'));
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return { body: Buffer.concat(chunks), contentType: `multipart/form-data; boundary=${boundary}` };
}

/** The contract's file part: field `recording`, named `{roomId}-{userId}.webm`. */
export const recordingPart = (bytes: Buffer, roomId = 'room', userId = 1): FormPart => ({
  name: 'recording',
  value: bytes,
  filename: `${roomId}-${userId}.webm`,
  contentType: 'video/webm',
});

/** Every key in the app's recording storage. */
export const storedKeys = (t: TestApp) => t.app.storage.list('');

/** What finishing a live recording of exactly these bytes must store: their seekable version, written in one pass. */
export async function seekableOf(bytes: Buffer): Promise<Buffer> {
  const parts: Buffer[] = [];
  let head = Buffer.alloc(0);
  await writeSeekableWebm([bytes], async () => ({
    write: async (part) => void parts.push(Buffer.from(part)),
    patchHead: async (patch) => void (head = Buffer.from(patch)),
    finish: async () => ({ sizeBytes: parts.reduce((sum, part) => sum + part.length, 0) }),
    abort: async () => {},
  }));
  const file = Buffer.concat(parts);
  head.copy(file, 0);
  return file;
}
