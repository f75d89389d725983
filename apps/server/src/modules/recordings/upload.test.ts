import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { existsSync, readdirSync } from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { buildTestApp, type TestApp } from '../../../test/app';
import { signedIn } from '../../../test/accounts';
import { createCourse, weekdayChoice } from '../../../test/courses';
import { eventually } from '../../../test/instances';
import { startS3, type TestS3 } from '../../../test/s3';
import { multipartBody, pngBytes, recordingPart, storedKeys, webmFixture, type FormPart } from '../../../test/recordings';
import { buy, sessionAt } from '../../../test/sessions';
import { recordings } from '../../db/schema/index';
import { scanWebm } from './webm';
import { Readable } from 'node:stream';
import { largeWebm } from '../../../test/large-webm';

let t: TestApp;
beforeEach(async () => {
  t = await buildTestApp();
});
afterEach(async () => {
  await t.close();
});

const MB = 1024 * 1024;
type Headers = Record<string, string>;
const uploadUrl = (roomId: string) => `/api/classes/sessions/${roomId}/upload-recording/`;

function upload(app: TestApp, roomId: string, parts: FormPart[], headers: Headers) {
  const { body, contentType } = multipartBody(parts);
  return app.app.inject({ method: 'POST', url: uploadUrl(roomId), payload: body, headers: { ...headers, 'content-type': contentType } });
}

/** A teacher, their course and a class session of it that took place two hours ago. */
async function teacherWithSession(app: TestApp = t) {
  const teacher = await signedIn(app, 'teacher');
  const course = await createCourse(app, teacher.headers, { name: 'Uploads 101' });
  const session = await sessionAt(app, course.id, 'Kick-off', -120);
  return { teacher, course, session };
}

/** Every file under DATA_DIR/recordings, temporary ones included. */
function filesUnder(app: TestApp): string[] {
  const walk = (dir: string): string[] =>
    existsSync(dir) ? readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? walk(path.join(dir, e.name)) : [path.join(dir, e.name)])) : [];
  return walk(path.join(app.dataDir, 'recordings'));
}

async function expectNothingStored(app: TestApp = t) {
  expect(await app.db.select().from(recordings)).toEqual([]);
  expect(await storedKeys(app)).toEqual([]);
  expect(filesUnder(app)).toEqual([]);
}

async function storedBytes(app: TestApp, key: string) {
  const chunks: Buffer[] = [];
  for await (const chunk of await app.app.storage.read(key)) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

describe('uploading a recording', () => {
  it("stores the session's teacher's WebM, makes it seekable and lists it: 201 with the recording", async () => {
    const { teacher, course, session } = await teacherWithSession();
    const res = await upload(t, session.roomId, [recordingPart(webmFixture(), session.roomId, teacher.user.id)], teacher.headers);
    expect(res.statusCode).toBe(201);
    const { data, message } = res.json();
    expect(message).toBe('Recording uploaded successfully');
    expect(data).toMatchObject({
      title: 'Kick-off',
      course_id: course.id,
      session_id: session.id,
      room_id: session.roomId,
      course_name: 'Uploads 101',
      session_title: 'Kick-off',
      mime_type: 'video/webm',
      can_delete: true,
    });
    expect(data.duration_seconds).toBeGreaterThan(2.5);
    expect(data.duration_seconds).toBeLessThan(3.5);

    const [row] = await t.db.select().from(recordings);
    expect(row).toMatchObject({ id: data.id, status: 'ready', source: 'upload', recordedBy: teacher.user.id });
    // Only the playable file is left: the upload it was made from is gone.
    expect(await storedKeys(t)).toEqual([row!.storageKey]);
    const stored = await storedBytes(t, row!.storageKey!);
    expect(data.size_bytes).toBe(stored.length);
    const scan = await scanWebm((await t.app.storage.read(row!.storageKey!)));
    expect(scan).toMatchObject({ originalHasDuration: true, originalHasCues: true, segmentSizeKnown: true, truncated: false });

    // A buyer of the course finds it in the course's list.
    const buyer = await signedIn(t, 'student');
    await buy(t, buyer.headers, weekdayChoice(course));
    const list = await t.app.inject({ method: 'GET', url: `/api/classes/recordings/?course_id=${course.id}`, headers: buyer.headers });
    expect(list.json().data.map((r: { id: number }) => r.id)).toEqual([data.id]);
  });

  it('writes the seekable file in one pass: one patchable write of the final object, nothing put or read back', async () => {
    const calls: string[] = [];
    const counting = await buildTestApp({}, (app) => {
      const storage = app.storage;
      const { read, put, putPatchable } = { read: storage.read.bind(storage), put: storage.put.bind(storage), putPatchable: storage.putPatchable.bind(storage) };
      storage.read = (key, range) => {
        calls.push(`read ${key}`);
        return read(key, range);
      };
      storage.put = (key, body, contentType) => {
        calls.push(`put ${key}`);
        return put(key, body, contentType);
      };
      storage.putPatchable = (key, contentType, options) => {
        calls.push(`putPatchable ${key}`);
        return putPatchable(key, contentType, options);
      };
    });
    try {
      const { teacher, session } = await teacherWithSession(counting);
      const res = await upload(counting, session.roomId, [recordingPart(webmFixture())], teacher.headers);
      expect(res.statusCode).toBe(201);
      expect(calls).toEqual([`putPatchable recordings/${res.json().data.id}.webm`]);
    } finally {
      await counting.close();
    }
  });

  it('stores a file of many clusters (3 MB) seekable: the clusters byte for byte, cues at every keyframe cluster', async () => {
    const { teacher, session } = await teacherWithSession();
    const bytes = await largeWebm(3 * MB);
    const source = await scanWebm(Readable.from([bytes]));
    const res = await upload(t, session.roomId, [recordingPart(bytes)], teacher.headers);
    expect(res.statusCode).toBe(201);
    const [row] = await t.db.select().from(recordings);
    const stored = await storedBytes(t, row!.storageKey!);
    expect(row!.sizeBytes).toBe(stored.length);
    const scan = await scanWebm(Readable.from([stored]));
    expect(scan).toMatchObject({ originalHasCues: true, originalHasDuration: true, segmentSizeKnown: true, truncated: false });
    expect(scan.durationMs).toBe(source.durationMs);
    expect(row!.durationSeconds).toBeCloseTo(source.durationMs / 1000, 3);
    expect(scan.clusters.length).toBe(source.clusters.length);
    expect(scan.cuePoints.map((c) => c.ticks)).toEqual(source.cuePoints.map((c) => c.ticks));
    // The last cluster's bytes are the source's.
    const [mine, theirs] = [scan.clusters.at(-1)!, source.clusters.at(-1)!];
    expect(stored.subarray(mine.dataStart, mine.end).equals(bytes.subarray(theirs.dataStart, theirs.end))).toBe(true);
  });

  it('takes the title from the form when given, before or after the file', async () => {
    const { teacher, session } = await teacherWithSession();
    const before = await upload(t, session.roomId, [{ name: 'title', value: '  Week 1, part 2  ' }, recordingPart(webmFixture())], teacher.headers);
    expect(before.statusCode).toBe(201);
    expect(before.json().data.title).toBe('Week 1, part 2');
    const after = await upload(t, session.roomId, [recordingPart(webmFixture()), { name: 'title', value: 'Afterwards' }], teacher.headers);
    expect(after.json().data.title).toBe('Afterwards');
  });

  it('refuses a title with control characters or too long (400 naming it), storing nothing', async () => {
    const { teacher, session } = await teacherWithSession();
    for (const title of ['bad\u0007title', 'x'.repeat(201)]) {
      for (const parts of [[{ name: 'title', value: title }, recordingPart(webmFixture())], [recordingPart(webmFixture()), { name: 'title', value: title }]]) {
        const res = await upload(t, session.roomId, parts, teacher.headers);
        expect(res.statusCode).toBe(400);
        expect(Object.keys(res.json().errors)).toEqual(['title']);
      }
    }
    await expectNothingStored();
  });

  it('stores no recording when its notice cannot be written: the row and the notice are one transaction', async () => {
    const { teacher, session } = await teacherWithSession();
    const door = t.app.notifications;
    const recordingAdded = door.recordingAdded;
    door.recordingAdded = async () => {
      throw new Error('database went away');
    };
    try {
      const res = await upload(t, session.roomId, [recordingPart(webmFixture(), session.roomId, teacher.user.id)], teacher.headers);
      expect(res.statusCode).toBe(500);
    } finally {
      door.recordingAdded = recordingAdded;
    }
    await expectNothingStored();
  });

  it('lets an admin upload to any session', async () => {
    const { session } = await teacherWithSession();
    const admin = await signedIn(t, 'admin');
    expect((await upload(t, session.roomId, [recordingPart(webmFixture())], admin.headers)).statusCode).toBe(201);
  });

  it('checks the bytes, not the name: a PNG named .webm is 415 and nothing is stored', async () => {
    const { teacher, session } = await teacherWithSession();
    const res = await upload(t, session.roomId, [{ ...recordingPart(pngBytes()), contentType: 'video/webm' }], teacher.headers);
    expect(res.statusCode).toBe(415);
    expect(res.json()).toEqual({ message: 'The recording must be a WebM video' });
    // An empty file is no WebM either, nor one that starts as WebM but holds no complete frame.
    expect((await upload(t, session.roomId, [recordingPart(Buffer.alloc(0))], teacher.headers)).statusCode).toBe(415);
    expect((await upload(t, session.roomId, [recordingPart(webmFixture().subarray(0, 300))], teacher.headers)).statusCode).toBe(415);
    await expectNothingStored();
  });

  it('asks for the file in the field `recording` (400), storing nothing', async () => {
    const { teacher, session } = await teacherWithSession();
    for (const parts of [[{ name: 'title', value: 'No file' }], [{ ...recordingPart(webmFixture()), name: 'video' }], []]) {
      const res = await upload(t, session.roomId, parts, teacher.headers);
      expect(res.statusCode).toBe(400);
      expect(res.json().message).toBe("Attach the recording in the form field 'recording'");
    }
    const json = await t.app.inject({ method: 'POST', url: uploadUrl(session.roomId), payload: { recording: 'x' }, headers: teacher.headers });
    expect(json.statusCode).toBe(400);
    await expectNothingStored();
  });

  it('is refused to students (403), for sessions of a course one does not teach (404) and for unknown rooms (404)', async () => {
    const { session } = await teacherWithSession();
    const student = await signedIn(t, 'student');
    const asStudent = await upload(t, session.roomId, [recordingPart(webmFixture())], student.headers);
    expect(asStudent.statusCode).toBe(403);
    const otherTeacher = await signedIn(t, 'teacher');
    const notTheirs = await upload(t, session.roomId, [recordingPart(webmFixture())], otherTeacher.headers);
    expect(notTheirs.statusCode).toBe(404);
    expect(notTheirs.json()).toEqual({ message: 'Session not found' });
    expect((await upload(t, 'no-such-room', [recordingPart(webmFixture())], otherTeacher.headers)).statusCode).toBe(404);
    expect((await upload(t, session.roomId, [recordingPart(webmFixture())], {})).statusCode).toBe(401);
    await expectNothingStored();
  });
});

describe('the size limit', () => {
  let small: TestApp;
  beforeEach(async () => {
    small = await buildTestApp({ MAX_RECORDING_MB: '1' });
  });
  afterEach(async () => {
    await small.close();
  });

  /** A real WebM followed by zeros (which the seekable rewrite ignores), `size` bytes in all. */
  const webmOfSize = (size: number) => Buffer.concat([webmFixture(), Buffer.alloc(size - webmFixture().length)]);

  it('answers 413 past MAX_RECORDING_MB and removes what was written', async () => {
    const { teacher, session } = await teacherWithSession(small);
    const res = await upload(small, session.roomId, [recordingPart(webmOfSize(MB + 1))], teacher.headers);
    expect(res.statusCode).toBe(413);
    expect(res.json()).toEqual({ message: 'The recording is larger than the server accepts' });
    await expectNothingStored(small);
  });

  it('takes a file of exactly MAX_RECORDING_MB', async () => {
    const { teacher, session } = await teacherWithSession(small);
    expect((await upload(small, session.roomId, [recordingPart(webmOfSize(MB))], teacher.headers)).statusCode).toBe(201);
  });
});

describe('over a real connection', () => {
  let port: number;
  beforeEach(async () => {
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    port = (t.app.server.address() as net.AddressInfo).port;
  });

  /** Sends the request's head and `bytes` of its body over a raw socket; the body's length is announced in full. */
  function rawUpload(roomId: string, headers: Headers, body: Buffer, contentType: string, bytes = body.length) {
    const socket = net.connect(port, '127.0.0.1');
    const head = [`POST ${uploadUrl(roomId)} HTTP/1.1`, `Host: 127.0.0.1:${port}`, `Content-Type: ${contentType}`, `Content-Length: ${body.length}`];
    for (const [name, value] of Object.entries(headers)) head.push(`${name}: ${value}`);
    socket.write(`${head.join('\r\n')}\r\n\r\n`);
    socket.write(body.subarray(0, bytes));
    let answer = '';
    socket.on('data', (chunk) => (answer += chunk.toString('latin1')));
    socket.on('error', () => {});
    return { socket, answer: () => answer };
  }

  it('leaves nothing behind when the client cuts the connection mid-upload: no row, no object, no partial file', async () => {
    const { teacher, session } = await teacherWithSession();
    const { body, contentType } = multipartBody([recordingPart(Buffer.concat([webmFixture(), Buffer.alloc(8 * MB)]))]);
    const { socket } = rawUpload(session.roomId, teacher.headers, body, contentType, Math.floor(body.length / 2));
    // The server is writing the upload to storage...
    await eventually(async () => filesUnder(t).length > 0, 60_000);
    socket.destroy();
    // ...and when the connection goes, what it wrote goes with it.
    await eventually(async () => filesUnder(t).length === 0, 60_000);
    await expectNothingStored();

    // The server goes on taking uploads.
    const res = await upload(t, session.roomId, [recordingPart(webmFixture())], teacher.headers);
    expect(res.statusCode).toBe(201);
  });

  it('answers 413 while a too large file is still being sent, and reads the rest of it away', async () => {
    await t.close();
    t = await buildTestApp({ MAX_RECORDING_MB: '1' });
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    port = (t.app.server.address() as net.AddressInfo).port;
    const { teacher, session } = await teacherWithSession();
    const { body, contentType } = multipartBody([recordingPart(Buffer.concat([webmFixture(), Buffer.alloc(4 * MB)]))]);
    // Only the first 2 MB are sent: the answer comes without the rest.
    const { socket, answer } = rawUpload(session.roomId, teacher.headers, body, contentType, 2 * MB);
    await eventually(async () => answer().includes("\r\n\r\n{"), 60_000);
    expect(answer()).toMatch(/^HTTP\/1\.1 413 /);
    socket.destroy();
    await expectNothingStored();
  });
});

describe('into an S3 bucket', () => {
  let s3: TestS3;
  let bucketApp: TestApp;
  beforeEach(async () => {
    s3 = await startS3();
    // Room for a multipart upload: part 1 (5 MiB) is held back, part 2 (8 MiB) goes up as it fills.
    bucketApp = await buildTestApp({ ...s3.env, MAX_RECORDING_MB: '20' });
  });
  afterEach(async () => {
    await bucketApp.close();
    await s3.stop();
  });

  it('stores the seekable file in the bucket and nothing else, small (one PutObject) or large (a multipart upload)', async () => {
    const { teacher, session } = await teacherWithSession(bucketApp);
    const keys: string[] = [];
    for (const bytes of [webmFixture(), await largeWebm(15 * MB)]) {
      const res = await upload(bucketApp, session.roomId, [recordingPart(bytes)], teacher.headers);
      expect(res.statusCode).toBe(201);
      keys.push(`recordings/${res.json().data.id}.webm`);
      const scan = await scanWebm(await bucketApp.app.storage.read(keys.at(-1)!));
      expect(scan).toMatchObject({ originalHasCues: true, originalHasDuration: true, segmentSizeKnown: true, truncated: false });
      expect(scan.durationMs).toBe((await scanWebm(Readable.from([bytes]))).durationMs);
    }
    expect(await storedKeys(bucketApp)).toEqual(keys.sort());
    expect(s3.pendingUploads()).toEqual([]);
  });

  it('leaves no object and no unfinished multipart upload past the limit, or when the client cuts the connection', async () => {
    const { teacher, session } = await teacherWithSession(bucketApp);
    const tooLarge = await upload(bucketApp, session.roomId, [recordingPart(await largeWebm(21 * MB))], teacher.headers);
    expect(tooLarge.statusCode).toBe(413);
    expect(await storedKeys(bucketApp)).toEqual([]);
    expect(s3.pendingUploads()).toEqual([]);

    await bucketApp.app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = bucketApp.app.server.address() as net.AddressInfo;
    const { body, contentType } = multipartBody([recordingPart(await largeWebm(19 * MB))]);
    const socket = net.connect(port, '127.0.0.1');
    socket.on('error', () => {});
    socket.write(
      [`POST ${uploadUrl(session.roomId)} HTTP/1.1`, 'Host: 127.0.0.1', `Content-Type: ${contentType}`, `Content-Length: ${body.length}`, `authorization: ${teacher.headers.authorization}`, '', ''].join('\r\n'),
    );
    // Part 1 (held back) and part 2 of the bucket's multipart upload: the upload has begun in the bucket.
    socket.write(body.subarray(0, 15 * MB));
    await eventually(async () => s3.pendingUploads().length > 0, 60_000);
    socket.destroy();
    await eventually(async () => s3.pendingUploads().length === 0, 60_000);
    expect(await storedKeys(bucketApp)).toEqual([]);
    expect(await bucketApp.db.select().from(recordings)).toEqual([]);
  });
});
