// End-to-end tests against the real server (which serves the built web app) and Debian's Chromium.
// `npm run test:e2e` builds the web app first; the server gets a fresh data folder per run.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { defineConfig, devices } from '@playwright/test';

// MOOZ_E2E_PORT lets two runs share a machine (the short-token server takes the next port).
const port = Number(process.env.MOOZ_E2E_PORT ?? 3100);
const baseURL = `http://127.0.0.1:${port}`;
/** A second server whose access tokens live 2 s, to prove the app refreshes them silently. */
const shortTokenPort = port + 1;
process.env.MOOZ_E2E_SHORT_BASE_URL = `http://127.0.0.1:${shortTokenPort}`;
// The config is read by the runner and by each worker: the folders are made once and passed down.
process.env.MOOZ_E2E_DATA_DIR ??= mkdtempSync(join(tmpdir(), 'mooz-e2e-'));
process.env.MOOZ_E2E_SHORT_DATA_DIR ??= mkdtempSync(join(tmpdir(), 'mooz-e2e-short-'));
const serverEnv = {
  HOST: '127.0.0.1',
  SEED_DEMO: '1',
  // No internet here: meetings connect over host candidates only.
  ICE_SERVERS: '[]',
  // Every test logs in from 127.0.0.1; the limits themselves are pinned by the server tests.
  RATE_LIMIT_SCALE: '20',
  LOG_LEVEL: 'warn',
};

export default defineConfig({
  testDir: 'e2e',
  fullyParallel: false,
  workers: 1,
  retries: process.env.CI ? 1 : 0,
  reporter: 'list',
  timeout: 30_000,
  expect: { timeout: 10_000 },
  use: {
    baseURL,
    trace: 'retain-on-failure',
    screenshot: 'only-on-failure',
  },
  projects: [
    {
      name: 'chromium',
      use: {
        ...devices['Desktop Chrome'],
        launchOptions: {
          executablePath: '/usr/bin/chromium',
          args: [
            '--no-sandbox',
            '--disable-gpu',
            '--disable-background-networking',
            '--disable-component-update',
            '--no-first-run',
          ],
        },
      },
    },
  ],
  webServer: [
    {
      command: 'npx tsx apps/server/src/main.ts',
      url: `${baseURL}/api/health`,
      reuseExistingServer: false,
      timeout: 120_000,
      stdout: 'ignore',
      stderr: 'pipe',
      env: { ...serverEnv, PORT: String(port), DATA_DIR: process.env.MOOZ_E2E_DATA_DIR },
    },
    {
      command: 'npx tsx apps/server/src/main.ts',
      url: `http://127.0.0.1:${shortTokenPort}/api/health`,
      reuseExistingServer: false,
      timeout: 120_000,
      stdout: 'ignore',
      stderr: 'pipe',
      env: { ...serverEnv, PORT: String(shortTokenPort), DATA_DIR: process.env.MOOZ_E2E_SHORT_DATA_DIR, ACCESS_TOKEN_TTL: '2' },
    },
  ],
});
