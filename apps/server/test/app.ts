// A real server for one test: the whole app on a fresh database, reached through inject() or listen().
import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { afterEach, beforeEach } from 'vitest';
import { buildApp } from '../src/app';
import { loadConfig, type Config } from '../src/config';
import type { Database } from '../src/db/client';
import { createTestDatabase } from './database';

export interface TestApp {
  app: FastifyInstance;
  db: Database;
  config: Config;
  dataDir: string;
  close(): Promise<void>;
}

export async function buildTestApp(
  env: Record<string, string> = {},
  beforeReady?: (app: FastifyInstance) => void | Promise<void>,
): Promise<TestApp> {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'mooz-test-'));
  // A stand-in web build, so the server's app-serving paths are tested without running Vite.
  const webDist = path.join(dataDir, 'web');
  mkdirSync(path.join(webDist, 'assets'), { recursive: true });
  writeFileSync(path.join(webDist, 'index.html'), '<!doctype html><div id="root"></div>');
  writeFileSync(path.join(webDist, 'assets', 'index-abc123.js'), 'console.log(1)');

  const config = loadConfig({
    DATA_DIR: dataDir,
    WEB_DIST: webDist,
    LOG_LEVEL: 'silent',
    JWT_SECRET: 'test-secret-that-is-long-enough-to-sign-tokens',
    SEED_DEMO: '0',
    REDIS_URL: process.env.REDIS_URL ?? '',
    REDIS_PREFIX: `mooz-test:${randomUUID()}:`,
    ...env,
  });
  const database = await createTestDatabase();
  const app = await buildApp(config, { database });
  await beforeReady?.(app);
  await app.ready();
  return heldApp({ app, db: database.db, config, dataDir }, () => database.close());
}

/**
 * A built app as a test holds it: closing it closes the app, then its database when the app has one of
 * its own (`closeDatabase`; not when the database is shared), then removes its data folder.
 */
export function heldApp(built: Omit<TestApp, 'close'>, closeDatabase?: () => Promise<void>): TestApp {
  return {
    ...built,
    async close() {
      await built.app.close();
      await closeDatabase?.();
      rmSync(built.dataDir, { recursive: true, force: true });
    },
  };
}

/** A new app for each test of the calling file or `describe`: built before the test, closed after it. */
export function appPerTest(): TestApp {
  const t = {} as TestApp;
  beforeEach(async () => {
    Object.assign(t, await buildTestApp());
  });
  afterEach(async () => {
    await t.close();
  });
  return t;
}
