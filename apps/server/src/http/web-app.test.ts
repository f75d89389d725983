// The built web app as the server sends it: the .br or .gz the build wrote beside a file when the
// browser accepts it, with its own type and a Vary; hashed assets cached for good, the rest revalidated.
// And the API docs page's policy, which must let Swagger UI run without a console error.
import { createHash } from 'node:crypto';
import { readFileSync, mkdirSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiDocsPath } from '@mooz/contract/api-routes';
import { buildTestApp, type TestApp } from '../../test/app';
import { pageSecurityHeaders } from '../../test/page-headers';

let t: TestApp;
let webDist: string;
const asset = `export const greeting = ${JSON.stringify('hello, compressed world '.repeat(200))};\n`;
const page = `<!doctype html><html><head><title>Mooz</title></head><body><div id="root"></div>${'<!-- padding -->'.repeat(50)}</body></html>`;
const translations = JSON.stringify({
  login: { title: 'Sign in', email: 'Email', password: 'Password' },
  padding: 'x'.repeat(2000),
});

/** A file of the build with the .br and .gz the web build writes beside it. */
function writeBuilt(relative: string, content: string) {
  const file = path.join(webDist, relative);
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, content);
  writeFileSync(`${file}.br`, brotliCompressSync(content));
  writeFileSync(`${file}.gz`, gzipSync(content, { level: 9 }));
}

beforeAll(async () => {
  // CORS on, so its Vary: Origin is there to be kept beside Accept-Encoding.
  t = await buildTestApp({ CORS_ORIGINS: 'http://app.example' });
  webDist = t.config.webDist!;
  writeBuilt('assets/chunk-Ab12Cd34.js', asset);
  writeBuilt('index.html', page);
  writeBuilt('locales/en/translation.json', translations);
});
afterAll(() => t?.close());

const get = (url: string, headers: Record<string, string> = {}) => t.app.inject({ method: 'GET', url, headers });
const varies = (headers: Record<string, unknown>) =>
  String(headers.vary ?? '')
    .toLowerCase()
    .split(/\s*,\s*/);

describe('the web app, precompressed', () => {
  it('sends brotli to a browser that accepts it, with the type of the file, a Vary and a year of cache', async () => {
    const res = await get('/assets/chunk-Ab12Cd34.js', { 'accept-encoding': 'gzip, deflate, br' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-encoding']).toBe('br');
    expect(res.headers['content-type']).toBe('application/javascript; charset=utf-8');
    expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(varies(res.headers)).toEqual(expect.arrayContaining(['accept-encoding', 'origin']));
    expect(res.rawPayload.length).toBeLessThan(Buffer.byteLength(asset));
    expect(brotliDecompressSync(res.rawPayload).toString()).toBe(asset);

    // A file the build left without a .br or .gz goes out as it is.
    const uncompressed = await get('/assets/index-abc123.js', { 'accept-encoding': 'gzip, deflate, br' });
    expect(uncompressed.statusCode).toBe(200);
    expect(uncompressed.headers['content-encoding']).toBeUndefined();
    expect(uncompressed.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(uncompressed.body).toBe('console.log(1)');
  });

  it('sends gzip when only gzip is accepted, and the file as it is when nothing is', async () => {
    const gzipped = await get('/assets/chunk-Ab12Cd34.js', { 'accept-encoding': 'gzip' });
    expect(gzipped.headers['content-encoding']).toBe('gzip');
    expect(gzipped.headers['content-type']).toBe('application/javascript; charset=utf-8');
    expect(gzipped.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(varies(gzipped.headers)).toContain('accept-encoding');
    expect(gunzipSync(gzipped.rawPayload).toString()).toBe(asset);

    const plainRequests: Record<string, string>[] = [
      {},
      { 'accept-encoding': 'identity' },
      { 'accept-encoding': 'br;q=0, gzip;q=0' },
    ];
    for (const headers of plainRequests) {
      const plain = await get('/assets/chunk-Ab12Cd34.js', headers);
      expect(plain.statusCode).toBe(200);
      expect(plain.headers['content-encoding']).toBeUndefined();
      expect(plain.headers['content-type']).toBe('application/javascript; charset=utf-8');
      expect(plain.headers['cache-control']).toBe('public, max-age=31536000, immutable');
      expect(varies(plain.headers)).toContain('accept-encoding');
      expect(plain.body).toBe(asset);
    }
  });

  it('revalidates index.html, at / and as every deep link, compressed, with 304s', async () => {
    for (const url of ['/', '/index.html', '/login', '/courses/3']) {
      const res = await get(url, { 'accept-encoding': 'gzip, deflate, br' });
      expect(res.statusCode, url).toBe(200);
      expect(res.headers['content-encoding'], url).toBe('br');
      expect(res.headers['content-type'], url).toBe('text/html; charset=utf-8');
      expect(res.headers['cache-control'], url).toBe('no-cache');
      expect(varies(res.headers), url).toContain('accept-encoding');
      expect(brotliDecompressSync(res.rawPayload).toString(), url).toBe(page);
      expect(res.headers['content-security-policy'], url).toContain("default-src 'self'");

      const etag = String(res.headers.etag);
      expect(etag, url).toBeTruthy();
      const unchanged = await get(url, { 'accept-encoding': 'gzip, deflate, br', 'if-none-match': etag });
      expect(unchanged.statusCode, url).toBe(304);
      expect(unchanged.rawPayload.length, url).toBe(0);
      expect(unchanged.headers['cache-control'], url).toBe('no-cache');
      const byDate = await get(url, {
        'accept-encoding': 'gzip, deflate, br',
        'if-modified-since': String(res.headers['last-modified']),
      });
      expect(byDate.statusCode, url).toBe(304);
    }
    const plain = await get('/courses/3');
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body).toBe(page);
  });

  it('revalidates the locales, compressed, with 304s', async () => {
    const res = await get('/locales/en/translation.json', { 'accept-encoding': 'gzip' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-encoding']).toBe('gzip');
    expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(res.headers['cache-control']).toBe('no-cache');
    expect(varies(res.headers)).toContain('accept-encoding');
    expect(JSON.parse(gunzipSync(res.rawPayload).toString())).toEqual(JSON.parse(translations));

    const unchanged = await get('/locales/en/translation.json', {
      'accept-encoding': 'gzip',
      'if-none-match': String(res.headers.etag),
    });
    expect(unchanged.statusCode).toBe(304);
    expect(unchanged.rawPayload.length).toBe(0);
    expect(unchanged.headers['content-encoding']).toBeUndefined();
    // Another encoding is another representation: its own ETag, so the gzip one does not match it.
    const brotli = await get('/locales/en/translation.json', {
      'accept-encoding': 'br',
      'if-none-match': String(res.headers.etag),
    });
    expect(brotli.statusCode).toBe(200);
    expect(brotli.headers['content-encoding']).toBe('br');
  });
});

describe('the headers of the web app', () => {
  // What Node and the HTTP layer add to every answer, beside what the answer itself says.
  const transport = ['date', 'connection', 'keep-alive', 'content-length', 'transfer-encoding'];

  it('are only what a hashed asset needs: cache, type, encoding, nosniff and the resource policy', async () => {
    const res = await get('/assets/chunk-Ab12Cd34.js', { 'accept-encoding': 'gzip, deflate, br' });
    expect(res.statusCode).toBe(200);
    const own = Object.fromEntries(Object.entries(res.headers).filter(([name]) => !transport.includes(name)));
    expect(own).toEqual({
      'cache-control': 'public, max-age=31536000, immutable',
      'content-type': 'application/javascript; charset=utf-8',
      'content-encoding': 'br',
      // This app has CORS on (beforeAll): its Vary: Origin and credentials header are on every answer.
      vary: expect.stringMatching(/accept-encoding/i),
      'access-control-allow-credentials': 'true',
      'x-content-type-options': 'nosniff',
      'cross-origin-resource-policy': 'same-origin',
    });
    // Nothing of the page's set, no validator (an immutable file is never revalidated).
    for (const name of ['content-security-policy', 'strict-transport-security', 'x-frame-options', 'etag', 'last-modified', 'x-request-id']) {
      expect(res.headers[name], name).toBeUndefined();
    }
  });

  it('keep the full security set on the page, at every deep link', async () => {
    for (const url of ['/', '/login', '/courses/3', '/index.html']) {
      const res = await get(url, { 'accept-encoding': 'br' });
      expect(res.statusCode, url).toBe(200);
      expect(res.headers, url).toMatchObject({
        'content-type': 'text/html; charset=utf-8',
        'cache-control': 'no-cache',
        ...pageSecurityHeaders,
      });
      expect(res.headers['content-security-policy'], url).toContain("script-src 'self'");
      expect(res.headers['x-request-id'], url).toBeTruthy();
      expect(res.headers.etag, url).toBeTruthy();
    }
  });

  it('answer a missing asset with a 404, not the app', async () => {
    const res = await get('/assets/gone-00000000.js');
    expect(res.statusCode).toBe(404);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
  });
});

describe('the page asks for its translations with it', () => {
  const preloads = (link: unknown) =>
    [...String(link ?? '').matchAll(/<\/locales\/(\w+)\/translation\.json>; rel=preload; as=fetch; crossorigin/g)].map((match) => match[1]);

  it('preloads the default language on every deep link, compressed or not', async () => {
    for (const url of ['/', '/login', '/courses/3', '/index.html']) {
      for (const encoding of ['br', 'gzip', 'identity']) {
        const res = await get(url, { 'accept-encoding': encoding });
        expect(res.statusCode, `${url} ${encoding}`).toBe(200);
        expect(preloads(res.headers.link), `${url} ${encoding}`).toEqual(['en']);
      }
    }
  });

  it("adds the language the browser will likely pick: ?lng=, then the i18next cookie, then Accept-Language's most wanted", async () => {
    expect(preloads((await get('/login', { 'accept-language': 'fr-CA,fr;q=0.9,en;q=0.8' })).headers.link)).toEqual(['fr', 'en']);
    expect(preloads((await get('/login', { 'accept-language': 'es;q=0.9,en;q=0.5,pt;q=0.7' })).headers.link)).toEqual(['pt', 'en']);
    expect(preloads((await get('/login?lng=de', { 'accept-language': 'fr' })).headers.link)).toEqual(['de', 'en']);
    expect(preloads((await get('/courses/3', { cookie: 'a=1; i18next=pt-BR', 'accept-language': 'fr' })).headers.link)).toEqual(['pt', 'en']);
    // Languages the app does not have, refused ones (q=0) and nonsense fall back to the default alone.
    expect(preloads((await get('/', { 'accept-language': 'es, fr;q=0, ../../etc' })).headers.link)).toEqual(['en']);
    expect(preloads((await get('/login?lng=xx', { cookie: 'i18next=<script>' })).headers.link)).toEqual(['en']);
  });

  it('is only on the page, not on its files', async () => {
    for (const url of ['/assets/chunk-Ab12Cd34.js', '/locales/en/translation.json']) {
      expect((await get(url, { 'accept-language': 'fr' })).headers.link, url).toBeUndefined();
    }
  });
});

describe('the API docs page', () => {
  /** The policy's sources for one directive, such as style-src. */
  const sources = (policy: string, directive: string) =>
    policy
      .split(';')
      .map((part) => part.trim().split(/\s+/))
      .find(([name]) => name === directive)
      ?.slice(1) ?? [];

  it("lets Swagger UI's files and its logo's inline <style> run, nothing inline besides, and only there", async () => {
    const res = await get(apiDocsPath);
    expect(res.statusCode).toBe(200);
    const policy = String(res.headers['content-security-policy']);
    expect(sources(policy, 'script-src')).toEqual(["'self'"]);
    expect(sources(policy, 'img-src')).toEqual(["'self'", 'data:']);
    expect(policy).not.toContain('unsafe-inline');
    expect(policy).not.toContain('upgrade-insecure-requests');

    // The page itself loads its scripts and stylesheets from files: 'self' covers them.
    expect(res.body).not.toMatch(/<script(?![^>]*\ssrc=)[^>]*>/);
    expect(res.body).not.toMatch(/<style|\sstyle=/);

    // The <style> elements that Swagger UI's React components render, from the installed version.
    const staticDir = path.join(path.dirname(createRequire(import.meta.url).resolve('@fastify/swagger-ui')), 'static');
    const inlineStyles = ['swagger-ui-bundle.js', 'swagger-ui-standalone-preset.js'].flatMap((file) =>
      [
        ...readFileSync(path.join(staticDir, file), 'utf8').matchAll(
          /createElement\("style",null,("(?:[^"\\]|\\.)*")\)/g,
        ),
      ].map((match) => JSON.parse(match[1]!) as string),
    );
    expect(inlineStyles.length).toBeGreaterThan(0);
    for (const css of inlineStyles) {
      expect(sources(policy, 'style-src')).toContain(`'sha256-${createHash('sha256').update(css).digest('base64')}'`);
    }

    // The app's pages keep their own policy.
    const appPolicy = String((await get('/login')).headers['content-security-policy']);
    expect(sources(appPolicy, 'script-src')).toEqual(["'self'", 'https://checkout.razorpay.com']);
    expect(appPolicy).not.toContain('sha256-');
  });
});
