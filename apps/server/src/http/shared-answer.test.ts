// A kept answer (the catalogue, a sessions list) goes to a client that accepts Brotli or gzip
// compressed, compressed once; to any other client as its JSON; and always says it varies with
// Accept-Encoding.
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../test/app';
import { signedIn } from '../../test/accounts';
import { createCourse } from '../../test/courses';
import { chosenEncoding, COMPRESS_FROM_BYTES, sharedAnswer, sharedBytes } from './shared-answer';

describe('chosenEncoding', () => {
  it.each([
    ['gzip, deflate, br, zstd', 'br'], // Chromium's
    ['gzip, deflate, br', 'br'],
    ['br', 'br'],
    ['gzip', 'gzip'],
    ['GZIP', undefined], // codings are matched as sent; no client sends them in capitals
    ['br;q=0, gzip', 'gzip'],
    ['gzip;q=0.8, br;q=0.5', 'gzip'],
    ['*', 'br'],
    ['deflate', undefined],
    ['identity', undefined],
    ['br;q=0, gzip;q=0', undefined],
    ['', undefined],
    [undefined, undefined],
    [['gzip', 'br'], 'br'],
  ])('%j → %s', (header, expected) => {
    expect(chosenEncoding(header as string | string[] | undefined)).toBe(expected);
    // Asked again, from what was kept: the same answer.
    expect(chosenEncoding(header as string | string[] | undefined)).toBe(expected);
  });

  // How many values are remembered is remembered()'s rule (infrastructure/remembered.test.ts).
  it('answers many different values, and long ones, the same as the first time', () => {
    for (let i = 0; i < 64 * 3; i++) {
      expect(chosenEncoding(`gzip;q=0.${i % 9}, x-made-up-${i}`)).toBe(i % 9 ? 'gzip' : undefined);
    }
    const long = `${'x-padding, '.repeat(20)}br`;
    expect(chosenEncoding(long)).toBe('br');
    expect(chosenEncoding(long)).toBe('br');
  });
});

describe('sharedBytes', () => {
  const serialize = (data: unknown) => JSON.stringify(data);
  const big = () => sharedAnswer({ data: Array.from({ length: 100 }, (_, i) => ({ id: i, name: `Course ${i}` })) });

  it('is undefined for an answer not marked shared', () => {
    expect(sharedBytes({ data: [] }, serialize, 'br')).toBeUndefined();
  });

  it('serialises and compresses an answer once, and sends the same bytes after', () => {
    const answer = big();
    let serialised = 0;
    const counting = (data: unknown) => (serialised++, serialize(data));
    const br = sharedBytes(answer, counting, 'br')!;
    expect(br.encoding).toBe('br');
    expect(sharedBytes(answer, counting, 'br')!.body).toBe(br.body);
    const gzip = sharedBytes(answer, counting, 'gzip')!;
    expect(gzip.encoding).toBe('gzip');
    expect(sharedBytes(answer, counting, 'gzip')!.body).toBe(gzip.body);
    const json = sharedBytes(answer, counting)!;
    expect(json.encoding).toBeUndefined();
    expect(serialised).toBe(1);
    expect(brotliDecompressSync(br.body).equals(json.body)).toBe(true);
    expect(gunzipSync(gzip.body).equals(json.body)).toBe(true);
    expect(br.body.length).toBeLessThan(json.body.length / 4);
  });

  it(`sends an answer under ${COMPRESS_FROM_BYTES} bytes as it is, whatever the client accepts`, () => {
    const small = sharedAnswer({ data: [] });
    expect(sharedBytes(small, serialize, 'br')).toEqual({ body: Buffer.from('{"data":[]}') });
  });
});

describe('a kept answer over HTTP', () => {
  let t: TestApp;
  let headers: Record<string, string>;
  const varied = (res: { headers: Record<string, unknown> }) => String(res.headers.vary).toLowerCase().split(/\s*,\s*/).sort();
  const catalogue = (extra: Record<string, string> = {}) => t.app.inject({ url: '/api/courses/', headers: { ...headers, ...extra } });

  beforeAll(async () => {
    t = await buildTestApp({ CORS_ORIGINS: 'http://app.example' });
    const teacher = await signedIn(t, 'teacher');
    // Enough courses that the catalogue is worth compressing.
    for (let i = 0; i < 4; i++) await createCourse(t, teacher.headers, { name: `Compressed course ${i}` });
    headers = (await signedIn(t)).headers;
  });
  afterAll(() => t?.close());

  it('goes as JSON, varying with Accept-Encoding, to a client that accepts no compression', async () => {
    const res = await catalogue();
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-encoding']).toBeUndefined();
    expect(varied(res)).toContain('accept-encoding');
    expect(res.rawPayload.length).toBeGreaterThan(COMPRESS_FROM_BYTES);
    expect(res.json().data.map((c: { name: string }) => c.name)).toEqual(expect.arrayContaining(['Compressed course 0', 'Compressed course 3']));
  });

  it.each([
    ['gzip, deflate, br, zstd', 'br', brotliDecompressSync],
    ['gzip', 'gzip', gunzipSync],
  ] as const)('goes to a client accepting %j as %s, the same JSON in fewer bytes', async (accept, encoding, decompress) => {
    const plain = await catalogue();
    const res = await catalogue({ 'accept-encoding': accept });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-encoding']).toBe(encoding);
    expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(res.headers['content-length']).toBe(String(res.rawPayload.length));
    expect(res.rawPayload.length).toBeLessThan(plain.rawPayload.length / 2);
    expect(decompress(res.rawPayload).equals(plain.rawPayload)).toBe(true);
    // The security headers go with it as with any answer.
    expect(res.headers['x-content-type-options']).toBe('nosniff');
  });

  it("keeps CORS's Vary: Origin beside Accept-Encoding", async () => {
    const res = await catalogue({ origin: 'http://app.example', 'accept-encoding': 'br' });
    expect(res.headers['access-control-allow-origin']).toBe('http://app.example');
    expect(varied(res)).toEqual(['accept-encoding', 'origin']);
  });

  it('sends a small kept answer (an empty sessions list) as JSON even to a client accepting Brotli', async () => {
    const res = await t.app.inject({ url: '/api/classes/sessions/', headers: { ...headers, 'accept-encoding': 'br' } });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-encoding']).toBeUndefined();
    expect(res.json()).toEqual({ data: [] });
  });

  it('leaves an answer made for one caller (their own courses) uncompressed', async () => {
    const res = await t.app.inject({ url: '/api/courses/my_courses/', headers: { ...headers, 'accept-encoding': 'br' } });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-encoding']).toBeUndefined();
  });
});
