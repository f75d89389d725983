// The signed playback links and the media route that serves a recording's bytes with HTTP Range: with
// the default file storage through the app, and with a bucket (s3rver) through presigned URLs fetched
// straight from it.
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { messages } from '@mooz/contract/messages';
import { recordingLimits } from '@mooz/contract/recordings';
import { buildTestApp, type TestApp } from '../../../test/app';
import { createUser, login } from '../../../test/accounts';
import { startS3, type TestS3 } from '../../../test/s3';
import { recordings } from '../../db/schema/recordings';
import { downloadFileName, playbackLinks, signedMediaUrl } from './links';
import { parseRange } from './media-route';

/** Distinct bytes at every offset, so a wrong range shows. */
const body = (size: number) => Buffer.from(Array.from({ length: size }, (_, i) => (i * 7 + (i >> 8)) & 0xff));

type Row = { id: number; storageKey: string | null; mimeType: string; title: string };

async function insertRecording(
  t: TestApp,
  bytes: Buffer | null,
  options: { title?: string; status?: 'recording' | 'processing' | 'ready'; recordedBy: number },
): Promise<Row> {
  const storageKey = bytes ? `recordings/media-test-${Math.random().toString(36).slice(2)}.webm` : null;
  if (bytes && storageKey) await t.app.storage.put(storageKey, Readable.from([bytes]), 'video/webm');
  const [row] = await t.db
    .insert(recordings)
    .values({
      roomId: `room-${Math.random().toString(36).slice(2)}`,
      title: options.title ?? 'Algebra, week 1',
      recordedBy: options.recordedBy,
      source: 'upload',
      status: options.status ?? 'ready',
      storageKey,
      sizeBytes: bytes?.length ?? 0,
      durationSeconds: 3,
    })
    .returning({ id: recordings.id, storageKey: recordings.storageKey, mimeType: recordings.mimeType, title: recordings.title });
  return row!;
}

const size = 100_000;
const bytes = body(size);

describe('recording playback links served by the app (file storage)', () => {
  let t: TestApp;
  let teacherId: number;
  let row: Row;
  let links: Awaited<ReturnType<typeof playbackLinks>>;

  beforeAll(async () => {
    t = await buildTestApp();
    teacherId = (await createUser(t, { userType: 'teacher' })).id;
    row = await insertRecording(t, bytes, { recordedBy: teacherId, title: 'Géométrie: «cercles» / partie 1' });
    links = await playbackLinks(t.app, row);
  });
  afterAll(() => t?.close());

  const get = (url: string, headers: Record<string, string> = {}, method: 'GET' | 'HEAD' = 'GET') => t.app.inject({ method, url, headers });

  it('makes links to the app, signed, that expire after linkTtlSeconds', async () => {
    expect(t.app.storage.kind).toBe('file');
    expect(links.url).toMatch(new RegExp(`^/api/classes/recordings/${row.id}/media/\\?expires=\\d+&signature=[A-Za-z0-9_-]{43}$`));
    expect(links.download_url).toMatch(/&download=1$/);
    const now = new Date('2030-01-02T03:04:05.678Z');
    const later = await playbackLinks(t.app, row, now);
    expect(later.url_expires_at).toBe(new Date(Date.parse('2030-01-02T03:04:05Z') + recordingLimits.linkTtlSeconds * 1000).toISOString());
    expect(new URL(later.url, 'http://x').searchParams.get('expires')).toBe(String(Date.parse(later.url_expires_at) / 1000));
  });

  it('streams the whole recording with no Range: 200, its type, length, Accept-Ranges, private caching', async () => {
    const res = await get(links.url);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('video/webm');
    expect(res.headers['content-length']).toBe(String(size));
    expect(res.headers['accept-ranges']).toBe('bytes');
    expect(res.headers['cache-control']).toBe('private');
    expect(res.headers['content-disposition']).toBeUndefined();
    expect(res.rawPayload.equals(bytes)).toBe(true);
  });

  it.each([
    ['bytes=0-0', 0, 0],
    ['bytes=0-1', 0, 1],
    ['bytes=1000-1999', 1000, 1999],
    ['bytes=99990-', 99_990, size - 1],
    ['bytes=-10', size - 10, size - 1],
    ['bytes=-200000', 0, size - 1],
    ['bytes=50000-999999', 50_000, size - 1],
  ])('answers %s with 206 and exactly those bytes', async (range, start, end) => {
    const res = await get(links.url, { range });
    expect(res.statusCode).toBe(206);
    expect(res.headers['content-range']).toBe(`bytes ${start}-${end}/${size}`);
    expect(res.headers['content-length']).toBe(String(end - start + 1));
    expect(res.headers['accept-ranges']).toBe('bytes');
    expect(res.rawPayload.equals(bytes.subarray(start, end + 1))).toBe(true);
  });

  it.each(['bytes=100000-', 'bytes=200000-300000', 'bytes=-0'])('answers the unsatisfiable %s with 416 and the size', async (range) => {
    const res = await get(links.url, { range });
    expect(res.statusCode).toBe(416);
    expect(res.headers['content-range']).toBe(`bytes */${size}`);
    expect(res.json()).toEqual({ message: expect.any(String) });
  });

  it('answers several ranges, another unit, a malformed range, or an If-Range it cannot check with the whole file', async () => {
    for (const headers of <Array<Record<string, string>>>[{ range: 'bytes=0-9,20-29' }, { range: 'items=0-9' }, { range: 'bytes=9-2' }, { range: 'bytes=abc' }, { range: 'bytes=0-9', 'if-range': '"x"' }]) {
      const res = await get(links.url, headers);
      expect(res.statusCode, JSON.stringify(headers)).toBe(200);
      expect(res.rawPayload.length).toBe(size);
    }
  });

  it('answers HEAD with the headers of GET and no body, with or without a Range', async () => {
    const whole = await get(links.url, {}, 'HEAD');
    expect(whole.statusCode).toBe(200);
    expect(whole.headers['content-length']).toBe(String(size));
    expect(whole.headers['content-type']).toBe('video/webm');
    expect(whole.headers['accept-ranges']).toBe('bytes');
    expect(whole.rawPayload.length).toBe(0);
    const part = await get(links.url, { range: 'bytes=10-19' }, 'HEAD');
    expect(part.statusCode).toBe(206);
    expect(part.headers['content-range']).toBe(`bytes 10-19/${size}`);
    expect(part.headers['content-length']).toBe('10');
    expect(part.rawPayload.length).toBe(0);
  });

  it('serves the download link as an attachment named after the title (RFC 5987 for what is not ASCII)', async () => {
    const res = await get(links.download_url);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-disposition']).toBe(
      `attachment; filename="G_om_trie _cercles_ partie 1.webm"; filename*=UTF-8''${encodeURIComponent('Géométrie «cercles» partie 1.webm')}`,
    );
    expect(res.rawPayload.equals(bytes)).toBe(true);
  });

  it('refuses a missing, malformed or tampered signature with 403 and the envelope, whatever the recording', async () => {
    const url = new URL(links.url, 'http://x');
    const signature = url.searchParams.get('signature')!;
    const expires = url.searchParams.get('expires')!;
    const flipped = `${signature[0] === 'A' ? 'B' : 'A'}${signature.slice(1)}`;
    const path = url.pathname;
    for (const bad of [
      path,
      `${path}?expires=${expires}`,
      `${path}?signature=${signature}`,
      `${path}?expires=${expires}&signature=${flipped}`,
      `${path}?expires=${Number(expires) + 3600}&signature=${signature}`,
      `${path}?expires=${expires}&signature=${signature}x`,
      `${path}?expires=${expires}&signature=${signature}&download=1`,
      `${path}?expires=${expires}&signature=${signature}&download=true`,
      `${path}?expires=${expires}&signature=${signature}&signature=${signature}`,
      links.download_url.replace('&download=1', ''),
      '/api/classes/recordings/not-an-id/media/?expires=1&signature=x',
    ]) {
      const res = await get(bad);
      expect(res.statusCode, bad).toBe(403);
      expect(res.json()).toEqual({ message: messages.recordingLinkInvalid });
    }
  });

  it('refuses an expired link with 403', async () => {
    const signedLongAgo = await playbackLinks(t.app, row, new Date(Date.now() - (recordingLimits.linkTtlSeconds + 5) * 1000));
    expect(Date.parse(signedLongAgo.url_expires_at)).toBeLessThan(Date.now());
    for (const url of [signedLongAgo.url, signedLongAgo.download_url]) {
      const res = await get(url);
      expect(res.statusCode).toBe(403);
      expect(res.json()).toEqual({ message: messages.recordingLinkInvalid });
    }
  });

  it("refuses one recording's valid signature on another recording's path with 403", async () => {
    const other = await insertRecording(t, body(500), { recordedBy: teacherId, title: 'Another' });
    const res = await get(links.url.replace(`/recordings/${row.id}/`, `/recordings/${other.id}/`));
    expect(res.statusCode).toBe(403);
    expect(res.json()).toEqual({ message: messages.recordingLinkInvalid });
    // Its own link works.
    expect((await get((await playbackLinks(t.app, other)).url)).statusCode).toBe(200);
  });

  it('takes no bearer token in place of a signature, and a signature is no token', async () => {
    const teacher = await createUser(t, { userType: 'admin' });
    const { access } = await login(t, teacher.email, teacher.password);
    const path = new URL(links.url, 'http://x').pathname;
    const withToken = await get(path, { authorization: `Bearer ${access}` });
    expect(withToken.statusCode).toBe(403);
    const tokenAsSignature = await get(`${path}?expires=${Math.floor(Date.now() / 1000) + 60}&signature=${access}`);
    expect(tokenAsSignature.statusCode).toBe(403);
    const signature = new URL(links.url, 'http://x').searchParams.get('signature')!;
    const signatureAsToken = await t.app.inject({ method: 'GET', url: '/api/auth/profile/', headers: { authorization: `Bearer ${signature}` } });
    expect(signatureAsToken.statusCode).toBe(401);
  });

  it('answers 404 with the envelope, for a valid signature, when the recording is not there or has no file yet', async () => {
    const expires = Math.floor(Date.now() / 1000) + 600;
    const unknown = await get(signedMediaUrl(t.app.jwtSecret, { id: 2_000_000_000, expires, download: false }));
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json()).toEqual({ message: messages.recordingNotFound });

    const processing = await insertRecording(t, null, { recordedBy: teacherId, status: 'processing' });
    const notReady = await get((await playbackLinks(t.app, processing)).url);
    expect(notReady.statusCode).toBe(404);
    expect(notReady.json()).toEqual({ message: messages.recordingNotFound });
    // A live recording made again with chunks that came late keeps playing its file meanwhile.
    const remade = await insertRecording(t, body(100), { recordedBy: teacherId, status: 'processing' });
    expect((await get((await playbackLinks(t.app, remade)).url)).statusCode).toBe(200);

    const live = await insertRecording(t, null, { recordedBy: teacherId, status: 'recording' });
    expect((await get((await playbackLinks(t.app, live)).url)).statusCode).toBe(404);

    const gone = await insertRecording(t, body(100), { recordedBy: teacherId });
    await t.app.storage.delete(gone.storageKey!);
    const missing = await get((await playbackLinks(t.app, gone)).url);
    expect(missing.statusCode).toBe(404);
    expect(missing.json()).toEqual({ message: messages.recordingNotFound });
  });

  it('serves an empty recording as 200 with no bytes, and refuses any range of it with 416', async () => {
    const empty = await insertRecording(t, Buffer.alloc(0), { recordedBy: teacherId });
    const { url } = await playbackLinks(t.app, empty);
    const whole = await get(url);
    expect(whole.statusCode).toBe(200);
    expect(whole.headers['content-length']).toBe('0');
    const part = await get(url, { range: 'bytes=0-' });
    expect(part.statusCode).toBe(416);
    expect(part.headers['content-range']).toBe('bytes */0');
  });

  it('keeps the bucket out of the page policy when there is none', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/login' });
    expect(res.headers['content-security-policy']).toContain("media-src 'self' blob:;");
  });
});

describe('recording playback links from a bucket (S3, presigned)', () => {
  let s3: TestS3;
  let t: TestApp;
  let row: Row;
  let links: Awaited<ReturnType<typeof playbackLinks>>;

  beforeAll(async () => {
    s3 = await startS3();
    t = await buildTestApp(s3.env);
    const teacherId = (await createUser(t, { userType: 'teacher' })).id;
    row = await insertRecording(t, bytes, { recordedBy: teacherId, title: 'Géométrie: «cercles» / partie 1' });
    links = await playbackLinks(t.app, row);
  });
  afterAll(async () => {
    await t?.close();
    await s3?.stop();
  });

  it('gives presigned GETs on the bucket that expire with the link, so the bytes never pass through the app', async () => {
    expect(t.app.storage.kind).toBe('s3');
    for (const url of [links.url, links.download_url]) {
      expect(url.startsWith(`${s3.settings.url}/${s3.settings.bucket}/${row.storageKey}?`)).toBe(true);
      const params = new URL(url).searchParams;
      expect(params.get('X-Amz-Expires')).toBe(String(recordingLimits.linkTtlSeconds));
      const signedAt = params.get('X-Amz-Date')!.replace(/^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z$/, '$1-$2-$3T$4:$5:$6Z');
      expect(new Date(Date.parse(signedAt) + recordingLimits.linkTtlSeconds * 1000).toISOString()).toBe(links.url_expires_at);
    }
  });

  it('fetches the whole recording, and a range of it, from the presigned URL', async () => {
    const whole = await fetch(links.url);
    expect(whole.status).toBe(200);
    expect(whole.headers.get('content-type')).toBe('video/webm');
    expect(Buffer.from(await whole.arrayBuffer()).equals(bytes)).toBe(true);
    const part = await fetch(links.url, { headers: { range: 'bytes=1000-1999' } });
    expect(part.status).toBe(206);
    expect(part.headers.get('content-range')).toBe(`bytes 1000-1999/${size}`);
    expect(Buffer.from(await part.arrayBuffer()).equals(bytes.subarray(1000, 2000))).toBe(true);
  });

  it('fetches the download URL as an attachment named after the title', async () => {
    const res = await fetch(links.download_url);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-disposition')).toBe(
      `attachment; filename="G_om_trie _cercles_ partie 1.webm"; filename*=UTF-8''${encodeURIComponent('Géométrie «cercles» partie 1.webm')}`,
    );
    expect(Buffer.from(await res.arrayBuffer()).equals(bytes)).toBe(true);
  });

  it('still streams from the bucket through the app for a link signed by the app', async () => {
    const expires = Math.floor(Date.now() / 1000) + 600;
    const url = signedMediaUrl(t.app.jwtSecret, { id: row.id, expires, download: false });
    const whole = await t.app.inject({ method: 'GET', url });
    expect(whole.statusCode).toBe(200);
    expect(whole.rawPayload.equals(bytes)).toBe(true);
    const part = await t.app.inject({ method: 'GET', url, headers: { range: 'bytes=-100' } });
    expect(part.statusCode).toBe(206);
    expect(part.rawPayload.equals(bytes.subarray(size - 100))).toBe(true);
  });

  it("lets the page's <video> load from the bucket (media-src)", async () => {
    const res = await t.app.inject({ method: 'GET', url: '/login' });
    expect(res.headers['content-security-policy']).toContain(`media-src 'self' blob: ${s3.settings.url};`);
  });
});

describe('Range header parsing', () => {
  it('follows RFC 9110 for one range, and answers anything else in full', () => {
    expect(parseRange(undefined, 10)).toBe('full');
    expect(parseRange('bytes=2-4', 10)).toEqual({ start: 2, end: 4 });
    expect(parseRange('bytes=2-', 10)).toEqual({ start: 2, end: 9 });
    expect(parseRange('bytes=-3', 10)).toEqual({ start: 7, end: 9 });
    expect(parseRange('bytes=9-100', 10)).toEqual({ start: 9, end: 9 });
    expect(parseRange('BYTES = 1 - 2', 10)).toEqual({ start: 1, end: 2 });
    expect(parseRange('bytes=10-', 10)).toBe('unsatisfiable');
    expect(parseRange('bytes=-0', 10)).toBe('unsatisfiable');
    expect(parseRange('bytes=0-', 0)).toBe('unsatisfiable');
    expect(parseRange('bytes=-5', 0)).toBe('unsatisfiable');
    expect(parseRange('bytes=5-2', 10)).toBe('full');
    expect(parseRange('bytes=-', 10)).toBe('full');
    expect(parseRange('bytes=1-2,4-5', 10)).toBe('full');
    expect(parseRange('lines=1-2', 10)).toBe('full');
    expect(parseRange('bytes=99999999999999999999-', 10)).toBe('full');
  });
});

describe('download file names', () => {
  it('keep the title, less what file systems refuse, with the extension of the type', () => {
    expect(downloadFileName('Algebra, week 1', 3, 'video/webm')).toBe('Algebra, week 1.webm');
    expect(downloadFileName('a/b\\c:d*e?f"g<h>i|j', 3, 'video/webm')).toBe('a b c d e f g h i j.webm');
    expect(downloadFileName('tab\tand\u0085next\u0000line', 3, 'video/mp4')).toBe('tab and next line.mp4');
    expect(downloadFileName('...hidden...', 3, 'video/webm')).toBe('hidden.webm');
    expect(downloadFileName(' / ', 42, 'video/webm')).toBe('recording-42.webm');
    expect(downloadFileName('x'.repeat(500), 1, 'video/webm; codecs=vp8')).toBe(`${'x'.repeat(120)}.webm`);
    expect(downloadFileName('Notes', 1, 'application/octet-stream')).toBe('Notes');
  });
});
