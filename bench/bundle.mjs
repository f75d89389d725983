// What a first visit to /login downloads, gzipped, from the Vite manifest of apps/web/dist; then what it
// actually transfers from the project's server (which it starts on a free port, or --url URL), asking
// for every file of that visit with the Accept-Encoding a browser sends.
// Run after `npm run build -w @mooz/web`. Prints figures; never fails on them.
//
//   node bench/bundle.mjs [--dist apps/web/dist] [--url http://127.0.0.1:3000]
import { readFileSync, existsSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import http from 'node:http';
import { cpus, totalmem } from 'node:os';
import { join, dirname, resolve } from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { startServer } from './support/server.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const argument = (name) => {
  const at = process.argv.indexOf(name);
  return at === -1 ? undefined : process.argv[at + 1];
};
const dist = resolve(argument('--dist') ?? join(root, 'apps/web/dist'));
const givenUrl = argument('--url')?.replace(/\/$/, '');
const manifestPath = join(dist, '.vite/manifest.json');
// The goals: the first visit to /login at most 120 KB of gzipped JavaScript and 15 KB of CSS;
// the courses page, reached from there, at most 40 KB more.
const aimKb = 120;
const aimCssKb = 15;
const aimCoursesKb = 40;

if (!existsSync(manifestPath)) {
  console.error(`No ${manifestPath}: run \`npm run build -w @mooz/web\` first.`);
  process.exit(1);
}

/** @type {Record<string, {file: string, src?: string, isEntry?: boolean, isDynamicEntry?: boolean, imports?: string[], dynamicImports?: string[], css?: string[]}>} */
const manifest = JSON.parse(readFileSync(manifestPath, 'utf8'));
const gzipCache = new Map();
const gzipBytes = (file) => {
  if (!gzipCache.has(file)) gzipCache.set(file, gzipSync(readFileSync(join(dist, file)), { level: 9 }).length);
  return gzipCache.get(file);
};
const kb = (bytes) => `${(bytes / 1024).toFixed(1)} KB`;

/** A chunk and everything it imports statically: what the browser fetches to run it. */
function closure(key, seen = new Set()) {
  if (seen.has(key)) return seen;
  seen.add(key);
  for (const dependency of manifest[key]?.imports ?? []) closure(dependency, seen);
  return seen;
}

function files(keys) {
  const js = new Set();
  const css = new Set();
  for (const key of keys) {
    const chunk = manifest[key];
    if (!chunk) continue;
    if (chunk.file.endsWith('.js')) js.add(chunk.file);
    for (const sheet of chunk.css ?? []) css.add(sheet);
  }
  return { js: [...js], css: [...css] };
}

const sum = (list) => list.reduce((total, file) => total + gzipBytes(file), 0);
const entryKey = Object.keys(manifest).find((key) => manifest[key].isEntry);
if (!entryKey) throw new Error('The manifest has no entry chunk.');

// The chunks that a visit to /login loads lazily: the app shell, the public frame and the login screen.
const loginRoute = ['src/app/app.tsx', 'src/app/layout/public-layout.tsx', 'src/features/auth/login-page.tsx'];
// Vite keys a chunk by its source path, unless Rollup merged the module into a shared chunk (keyed
// "_<name>-<hash>.js") or the build put it into one of its layers (manualChunks in apps/web/vite.config.ts);
// then the chunk is the one whose source map lists the module.
const chunkSources = new Map();
function sourcesOf(key) {
  if (!chunkSources.has(key)) {
    const mapFile = join(dist, `${manifest[key].file}.map`);
    const sources = existsSync(mapFile) ? JSON.parse(readFileSync(mapFile, 'utf8')).sources : [];
    chunkSources.set(
      key,
      sources.map((each) => each.replace(/^(\.\.\/)+/, '')),
    );
  }
  return chunkSources.get(key);
}
function chunkKeyOf(source) {
  if (manifest[source]) return source;
  const name = source
    .split('/')
    .pop()
    .replace(/\.[jt]sx?$/, '');
  return (
    Object.keys(manifest).find(
      (key) => manifest[key].src === source || (manifest[key].isDynamicEntry && manifest[key].name === name),
    ) ??
    Object.keys(manifest).find(
      (key) =>
        manifest[key].file.endsWith('.js') &&
        sourcesOf(key).some((each) => each.endsWith(`apps/web/${source}`) || each === source),
    )
  );
}

const entryOnly = files(closure(entryKey));
const firstVisitKeys = new Set(closure(entryKey));
for (const source of loginRoute) {
  const key = chunkKeyOf(source);
  if (!key) console.warn(`warning: no chunk found for ${source}`);
  else closure(key, firstVisitKeys);
}
const firstVisit = files(firstVisitKeys);

console.log(
  `machine: ${cpus()[0]?.model ?? 'unknown CPU'} ×${cpus().length}, ${(totalmem() / 2 ** 30).toFixed(1)} GiB, node ${process.version}`,
);
console.log('');
console.log('first visit to /login (gzip -9):');
console.log(
  `  entry chunk + its static imports   JS ${kb(sum(entryOnly.js)).padStart(9)}   CSS ${kb(sum(entryOnly.css)).padStart(8)}`,
);
console.log(
  `  + app shell, public layout, login JS ${kb(sum(firstVisit.js)).padStart(9)}   CSS ${kb(sum(firstVisit.css)).padStart(8)}   (${firstVisit.js.length} JS files, ${firstVisit.css.length} CSS files)`,
);

console.log('');
console.log('lazy chunks (own size; "+new" = with static imports not already loaded by the first visit):');
const lazyKeys = Object.keys(manifest).filter((key) => manifest[key].isDynamicEntry);
const rows = lazyKeys.map((key) => {
  const own = gzipBytes(manifest[key].file);
  const extra = files([...closure(key)].filter((dependency) => !firstVisitKeys.has(dependency)));
  return {
    name: manifest[key].src ?? `${manifest[key].name} (${manifest[key].file})`,
    own,
    extra: sum(extra.js),
    css: sum(extra.css),
  };
});
rows.sort((a, b) => b.extra - a.extra);
for (const row of rows) {
  console.log(
    `  ${row.name.padEnd(46)} ${kb(row.own).padStart(9)}   +new JS ${kb(row.extra).padStart(9)}   CSS ${kb(row.css).padStart(8)}`,
  );
}

const firstVisitJs = sum(firstVisit.js);
const firstVisitCss = sum(firstVisit.css);

// The courses page after signing in on /login: everything a visit to /courses fetches that the first
// visit did not, i.e. the chunks of its routes (TanStack Query's root, the app frame, the page) and the
// ability its guard loads. The toasts' host comes with the first toast (lib/toasts.ts), not with a screen.
const coursesRoute = [
  'src/app/query-root.tsx',
  'src/app/layout/app-layout.tsx',
  'src/features/courses/courses-page.tsx',
  'src/lib/ability.tsx',
];
const coursesKeys = new Set();
for (const source of coursesRoute) {
  const key = chunkKeyOf(source);
  // Older builds had some of these in the first visit's chunks already.
  if (key) closure(key, coursesKeys);
}
const coursesAdded = files([...coursesKeys].filter((key) => !firstVisitKeys.has(key)));
const coursesJs = sum(coursesAdded.js);
console.log('');
console.log(
  `then /courses, signed in: +JS ${kb(coursesJs)}   +CSS ${kb(sum(coursesAdded.css))}   (${coursesAdded.js.length} JS files: query root, app frame, page, ability)`,
);

const verdict = (value, aim) => (value <= aim * 1024 ? 'within the aim' : `${kb(value - aim * 1024)} over the aim`);
console.log('');
console.log(
  `aim: first visit at most ${aimKb} KB of gzipped JavaScript → ${kb(firstVisitJs)}: ${verdict(firstVisitJs, aimKb)}`,
);
console.log(
  `aim: first visit at most ${aimCssKb} KB of gzipped CSS → ${kb(firstVisitCss)}: ${verdict(firstVisitCss, aimCssKb)}`,
);
console.log(
  `aim: the courses page at most ${aimCoursesKb} KB more JavaScript → ${kb(coursesJs)}: ${verdict(coursesJs, aimCoursesKb)}`,
);

// Baseline, measured in the same run: the floor any React 19 app pays before its own code — React and
// react-dom's production builds, minified as our build minifies — so the figure above reads as floor + ours.
const requireFromWeb = createRequire(join(root, 'apps/web/package.json'));
const { transformSync } = createRequire(import.meta.url)('esbuild');
const publishedBytes = (pkg, file) => {
  const source = readFileSync(join(dirname(requireFromWeb.resolve(`${pkg}/package.json`)), file), 'utf8');
  return gzipSync(transformSync(source, { minify: true }).code, { level: 9 }).length;
};
const floor =
  publishedBytes('react', 'cjs/react.production.js') +
  publishedBytes('react-dom', 'cjs/react-dom.production.js') +
  publishedBytes('react-dom', 'cjs/react-dom-client.production.js') +
  publishedBytes('scheduler', 'cjs/scheduler.production.js');
// The build ships Preact's React layer instead (apps/web/vite.config.ts): its floor, for comparison.
const preactFloor =
  publishedBytes('preact', 'dist/preact.mjs') +
  publishedBytes('preact', 'hooks/dist/hooks.mjs') +
  publishedBytes('preact', 'compat/dist/compat.mjs');
console.log(
  `baseline: react + react-dom + scheduler alone ${kb(floor)}; the build ships preact + hooks + compat instead, ${kb(preactFloor)}, and the first visit adds ${kb(firstVisitJs - preactFloor)} on top of that (router, i18n, Mantine, the app)`,
);

// What goes over the wire: the first visit's files, each asked for as a browser would, counting the
// bytes of the bodies as sent (compressed or not) and of the response heads.
const agent = new http.Agent({ keepAlive: true });
/** One GET as it crosses the wire: node:http does not decompress, so the body bytes are those sent. */
function transfer(url, acceptEncoding) {
  return new Promise((resolveTransfer, reject) => {
    const headers = acceptEncoding ? { 'accept-encoding': acceptEncoding } : {};
    http
      .get(url, { agent, headers }, (response) => {
        let body = 0;
        response.on('data', (chunk) => (body += chunk.length));
        response.on('end', () => {
          const lines = [`HTTP/${response.httpVersion} ${response.statusCode} ${response.statusMessage}`];
          for (let i = 0; i < response.rawHeaders.length; i += 2) {
            lines.push(`${response.rawHeaders[i]}: ${response.rawHeaders[i + 1]}`);
          }
          resolveTransfer({
            status: response.statusCode,
            encoding: response.headers['content-encoding'] ?? 'identity',
            body,
            head: Buffer.byteLength(`${lines.join('\r\n')}\r\n\r\n`),
          });
        });
        response.on('error', reject);
      })
      .on('error', reject);
  });
}

// The first visit's URLs, as Chromium fetches them: the page, what index.html names (entry script, its
// stylesheet, the icon), the chunks and stylesheets of the login route, the root route's error boundary
// (React Router resolves a matched route's lazy ErrorBoundary with it; the gzip figures above leave it
// out) and the default language's translations.
const transferKeys = new Set(firstVisitKeys);
const errorBoundaryKey = chunkKeyOf('src/app/routes/error-page.tsx');
if (errorBoundaryKey) closure(errorBoundaryKey, transferKeys);
else console.warn('warning: no chunk found for src/app/routes/error-page.tsx');
const transferFiles = files(transferKeys);
const indexHtml = readFileSync(join(dist, 'index.html'), 'utf8');
const named = [...indexHtml.matchAll(/\s(?:src|href)="(\/[^"]+)"/g)].map((match) => match[1]);
const visitPaths = [
  ...new Set([
    '/login',
    ...named,
    ...[...transferFiles.js, ...transferFiles.css].map((file) => `/${file}`),
    '/locales/en/translation.json',
  ]),
];

let server = null;
try {
  // The project's server on this build; no demo data needed for /login.
  server = givenUrl
    ? null
    : await startServer({ env: { WEB_DIST: dist, SEED_DEMO: '0', LOG_LEVEL: 'error', NODE_ENV: '' } });
  const base = givenUrl ?? server.url;
  const rows = [];
  for (const [label, acceptEncoding] of [
    ['br, gzip (a browser)', 'gzip, deflate, br, zstd'],
    ['gzip only', 'gzip'],
    ['no compression', ''],
  ]) {
    const results = [];
    for (const visitPath of visitPaths) results.push(await transfer(`${base}${visitPath}`, acceptEncoding));
    const failed = results.filter((result) => result.status !== 200).length;
    const encodings = [...new Set(results.map((result) => result.encoding))].join('/');
    rows.push({ label, results, failed, encodings });
  }
  console.log('');
  console.log(
    `first visit to /login as transferred by ${givenUrl ? givenUrl : 'the server (started on a free port)'}, ${visitPaths.length} files:`,
  );
  for (const row of rows) {
    const bodies = row.results.reduce((total, result) => total + result.body, 0);
    const heads = row.results.reduce((total, result) => total + result.head, 0);
    console.log(
      `  ${row.label.padEnd(22)} bodies ${kb(bodies).padStart(9)}   + response heads ${kb(heads).padStart(8)}   (sent as ${row.encodings}${
        row.failed ? `; ${row.failed} not 200` : ''
      })`,
    );
  }
} catch (error) {
  console.log('');
  console.log(`transferred bytes not measured: ${error instanceof Error ? error.message : String(error)}`);
} finally {
  agent.destroy();
  await server?.stop();
}

// One line for `npm run bench`'s table (/work/tools/briefs/summary-format.md).
const round1 = (bytes) => Math.round((bytes / 1024) * 10) / 10;
const row = (figure, value, aim, baseline = null, baselineName = null) => ({
  figure,
  value: round1(value),
  unit: 'KB gzip',
  baseline: baseline === null ? null : round1(baseline),
  baselineName,
  ratio: baseline === null ? null : Math.round((value / baseline) * 100) / 100,
  goal: `≤ ${aim} KB`,
  met: value <= aim * 1024,
});
console.log(
  `BENCH-SUMMARY ${JSON.stringify({
    bench: 'bundle',
    rows: [
      row('first visit to /login, JS', firstVisitJs, aimKb, floor, 'react + react-dom + scheduler alone'),
      row('first visit to /login, CSS', firstVisitCss, aimCssKb),
      row('then /courses signed in, JS added', coursesJs, aimCoursesKb),
    ],
  })}`,
);
