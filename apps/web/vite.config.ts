import { existsSync } from 'node:fs';
import { readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import { defineConfig } from 'vitest/config';
import type { Plugin } from 'vite';
import react from '@vitejs/plugin-react';

const apiTarget = process.env.MOOZ_API ?? 'http://127.0.0.1:3000';

/**
 * Writes a .br (brotli 11) and a .gz (gzip 9) beside every text file of the build, public files such as
 * the locales included, for the server (apps/server/src/http/web-app.ts) to send as the browser's
 * Accept-Encoding allows. A file that does not shrink gets none; source maps and Vite's own manifest
 * are left alone.
 */
function precompress(): Plugin {
  const compressible = /\.(js|mjs|css|html|json|svg|txt|xml|webmanifest)$/;
  const brotli = promisify(brotliCompress);
  const gzipAsync = promisify(gzip);
  async function* walk(dir: string): AsyncGenerator<string> {
    for (const entry of await readdir(dir, { withFileTypes: true })) {
      if (entry.name.startsWith('.')) continue;
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) yield* walk(full);
      else if (compressible.test(entry.name)) yield full;
    }
  }
  return {
    name: 'mooz:precompress',
    apply: 'build',
    // After every file is written, public files included.
    async writeBundle(options) {
      if (!options.dir) return;
      const jobs: Promise<void>[] = [];
      for await (const file of walk(options.dir)) {
        jobs.push(
          (async () => {
            const source = await readFile(file);
            const [br, gz] = await Promise.all([
              brotli(source, {
                params: {
                  [constants.BROTLI_PARAM_QUALITY]: 11,
                  [constants.BROTLI_PARAM_SIZE_HINT]: source.length,
                  [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
                },
              }),
              gzipAsync(source, { level: 9 }),
            ]);
            // A copy that would not be smaller is not written, nor left over from an earlier build.
            for (const [extension, compressed] of Object.entries({ '.br': br, '.gz': gz })) {
              if (compressed.length < source.length) await writeFile(`${file}${extension}`, compressed);
              else await rm(`${file}${extension}`, { force: true });
            }
          })(),
        );
      }
      await Promise.all(jobs);
    },
  };
}

/**
 * CASL's module builds its MongoDB matcher when it loads (`const mongoQueryMatcher = createFactory(…)`),
 * a call the bundler must keep, and with it all of @ucast's query language (3 KB gzip), though our
 * abilities match conditions by equality (`equalityMatcher` in @mooz/contract/permissions). Marking that
 * one call pure lets the bundler drop it when nothing uses it. If CASL's build changes and the call is
 * not found, the build says so (and bench/bundle.mjs shows the bytes back).
 */
function caslWithoutMongoMatcher(): Plugin {
  const call = 'const nt=t(it,et);';
  return {
    name: 'mooz:casl-without-mongo-matcher',
    apply: 'build',
    transform(code, id) {
      if (!/[\\/]@casl[\\/]ability[\\/]dist[\\/]es6m[\\/]index\.mjs$/.test(id)) return null;
      if (!code.includes(call)) {
        this.warn('@casl/ability changed: its MongoDB matcher is no longer marked pure, and @ucast is bundled');
        return null;
      }
      return { code: code.replace(call, 'const nt=/*#__PURE__*/t(it,et);'), map: null };
    },
  };
}

/**
 * The shipped app runs on Preact's React-compatible layer: the same React code (hooks, portals, Suspense,
 * `use`, lazy) in about a tenth of react-dom's bytes, which is what lets a first visit to /login stay
 * under its budget of 120 KB. Exact specifiers only, so `react-dom/client` and the JSX runtimes map to their
 * Preact counterparts and nothing else is caught. Builds only: the dev server keeps React for its fast
 * refresh and developer tools, and the web unit tests keep it for Testing Library (which loads react-dom
 * itself); the end-to-end suite drives the build, so every user flow is proven on what ships.
 */
const preactAliases = [
  { find: /^react-dom\/client$/, replacement: 'preact/compat/client' },
  { find: /^react-dom\/test-utils$/, replacement: 'preact/test-utils' },
  { find: /^react-dom$/, replacement: 'preact/compat' },
  { find: /^react\/jsx-runtime$/, replacement: 'preact/jsx-runtime' },
  { find: /^react\/jsx-dev-runtime$/, replacement: 'preact/jsx-dev-runtime' },
  { find: /^react$/, replacement: 'preact/compat' },
  { find: /^use-sync-external-store\/shim$/, replacement: 'preact/compat' },
];

/**
 * React Router 7 ships a development and a production build, identical but for one flag that turns its
 * development warnings on, and its package's exports name only the development one, so a bundler takes
 * that for production too (warnings checked at run time, their text in the bundle). Builds take the
 * production one, by file. If a release moves it, the build says so and keeps the default.
 */
function reactRouterProductionAlias(): { find: RegExp; replacement: string }[] {
  const root = path.dirname(createRequire(import.meta.url).resolve('react-router/package.json'));
  const production = path.join(root, 'dist/production/index.mjs');
  if (existsSync(production)) return [{ find: /^react-router$/, replacement: production }];
  console.warn(`react-router changed: ${production} is missing, and its development build is bundled`);
  return [];
}

export default defineConfig(({ command }) => ({
  root: import.meta.dirname,
  resolve: { alias: command === 'build' ? [...preactAliases, ...reactRouterProductionAlias()] : [] },
  plugins: [react(), caslWithoutMongoMatcher(), precompress()],
  server: {
    port: 5173,
    proxy: {
      '/api': apiTarget,
      '/socket.io': { target: apiTarget, ws: true },
    },
  },
  // The manifest lets bench/bundle.mjs follow a first visit's chunks.
  build: { outDir: 'dist', emptyOutDir: true, sourcemap: true, manifest: true },
  test: {
    name: 'web',
    environment: 'jsdom',
    include: ['src/**/*.test.{ts,tsx}'],
    setupFiles: ['src/test/setup.ts'],
  },
}));
