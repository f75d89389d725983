// End-to-end tests against the real server (which serves the built web app) and Debian's Chromium.
// `npm run test:e2e` builds the web app first; each server gets a fresh data folder per run.
//
// Two workers, each with a server and a data folder of its own (a spec file runs whole on one worker,
// its tests in order; files are shared out between the workers as they come free). A spec may not
// count on another spec file's data: it makes what it needs (newStudent, its own course) or reads the
// demo data only as seeded. In a worker, `baseURL` and MOOZ_E2E_DATA_DIR (the outbox) are that
// worker's server's. A spec that needs a server of another configuration starts its own
// (support/own-server.ts: a free port, its own data folder) and its helpers (coturn, Janus) on free
// ports or ranges of their own, never a fixed port: two specs may run at once.
//
// Two projects. `live-classes`: the specs where several people meet, each in a Chromium with a camera;
// one such meeting fills both cores of a machine like CI's, so they run one at a time. `pages`: the
// rest. `npm run test:e2e:built` (scripts/e2e.mjs) runs `pages` on both workers, then `live-classes`
// alone, so that no page waits behind a meeting's video.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { defineConfig, devices } from '@playwright/test';

/** MOOZ_E2E_WORKERS=1 runs the specs one at a time on one server, as before. */
const workers = Math.max(1, Number(process.env.MOOZ_E2E_WORKERS ?? 2));
// A run takes the ports MOOZ_E2E_PORT .. MOOZ_E2E_PORT + workers: a server per worker, then the
// short-token server. Another run on the same machine takes another MOOZ_E2E_PORT.
const port = Number(process.env.MOOZ_E2E_PORT ?? 3100);
const shortTokenPort = port + workers;
/** A second server whose access tokens live 2 s, to prove the app refreshes them silently (one spec's). */
process.env.MOOZ_E2E_SHORT_BASE_URL = `http://127.0.0.1:${shortTokenPort}`;
// The config is read by the runner and by each worker: the folders are made once, by the runner, and
// passed down; a worker (TEST_PARALLEL_INDEX, 0 .. workers - 1) takes its own.
const dataDirs = Array.from({ length: workers }, (_, slot) => (process.env[`MOOZ_E2E_DATA_DIR_${slot}`] ??= mkdtempSync(join(tmpdir(), `mooz-e2e-${slot}-`))));
process.env.MOOZ_E2E_SHORT_DATA_DIR ??= mkdtempSync(join(tmpdir(), 'mooz-e2e-short-'));
// --workers above MOOZ_E2E_WORKERS shares the servers round the workers.
const slot = Number(process.env.TEST_PARALLEL_INDEX ?? 0) % workers;
process.env.MOOZ_E2E_DATA_DIR = dataDirs[slot];
const baseURL = `http://127.0.0.1:${port + slot}`;
const serverEnv = {
  HOST: '127.0.0.1',
  SEED_DEMO: '1',
  // No internet here: meetings connect over host candidates only.
  ICE_SERVERS: '[]',
  // Every test logs in from 127.0.0.1; the limits themselves are pinned by the server tests.
  RATE_LIMIT_SCALE: '20',
  // Cheap password hashing: every test signs people in (the OWASP cost is pinned by config.test.ts).
  PASSWORD_HASH_COST: 'test',
  LOG_LEVEL: 'warn',
};
const server = (serverPort: number, env: Record<string, string>) => ({
  command: 'npx tsx apps/server/src/main.ts',
  url: `http://127.0.0.1:${serverPort}/api/health`,
  reuseExistingServer: false,
  // They start together, on a shared machine.
  timeout: 180_000,
  stdout: 'ignore' as const,
  stderr: 'pipe' as const,
  env: { ...serverEnv, PORT: String(serverPort), ...env },
});

/** The specs where several people meet with cameras (see above). */
const liveClassSpecs = ['meeting', 'classroom', 'classroom-tools', 'whiteboard', 'recording-live', 'reconnect', 'large-class', 'turn-relay', 'keyboard', 'accessibility-meeting'].map((name) => `**/${name}.spec.ts`);

const browserUse = {
  ...devices['Desktop Chrome'],
  launchOptions: {
    executablePath: '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--no-first-run'],
  },
};

export default defineConfig({
  testDir: 'e2e',
  // The Janus of the large-class spec, made before any browser starts (support/global-janus.ts).
  globalSetup: './e2e/support/global-janus.ts',
  fullyParallel: false,
  workers,
  retries: process.env.CI ? 1 : 0,
  reporter: 'list',
  // A spec's test is a user's whole flow (sign up, buy, reload, log out), a page load at a time; with
  // two workers on two cores its steps take 0.1–4 s each, and 30 s ran out mid-flow.
  timeout: 60_000,
  expect: { timeout: 10_000 },
  use: {
    baseURL,
    // A trace records a screenshot at every step: with it on for every test, Chromium's compositor and
    // browser process spent more than the pages themselves. On CI a failed test is run again with one.
    trace: process.env.CI ? 'on-first-retry' : 'retain-on-failure',
    screenshot: 'only-on-failure',
  },
  projects: [
    { name: 'pages', testIgnore: liveClassSpecs, use: browserUse },
    { name: 'live-classes', testMatch: liveClassSpecs, workers: 1, use: browserUse },
  ],
  webServer: [
    ...dataDirs.map((dataDir, slot) => server(port + slot, { DATA_DIR: dataDir })),
    // Only a `pages` spec (accounts) uses it: a run of the `live-classes` project alone does not start it.
    ...(process.env.MOOZ_E2E_WITHOUT_SHORT_SERVER ? [] : [server(shortTokenPort, { DATA_DIR: process.env.MOOZ_E2E_SHORT_DATA_DIR, ACCESS_TOKEN_TTL: '2' })]),
  ],
});
