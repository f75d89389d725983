// Several instances of the app on one database, as several server processes would run: each with its
// own database handle (so each hears only its own writes directly) and its own memory.
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll } from 'vitest';
import { buildApp } from '../src/app';
import { loadConfig } from '../src/config';
import { heldApp, type TestApp } from './app';
import { createSharedTestDatabase } from './database';

export async function sharedInstances(
  count: number,
  options: { env?: Record<string, string>; cacheTtlMs?: number } = {},
): Promise<{ instances: TestApp[]; close(): Promise<void> }> {
  const shared = await createSharedTestDatabase(count);
  const prefix = `mooz-test:${randomUUID()}:`;
  const instances: TestApp[] = [];
  try {
    for (const database of shared.handles) {
      const dataDir = mkdtempSync(path.join(os.tmpdir(), 'mooz-instance-'));
      const config = loadConfig({
        DATA_DIR: dataDir,
        WEB_DIST: dataDir,
        LOG_LEVEL: 'silent',
        JWT_SECRET: 'test-secret-that-is-long-enough-to-sign-tokens',
        REDIS_PREFIX: prefix,
        ...options.env,
      });
      const app = await buildApp(config, { database, cacheTtlMs: options.cacheTtlMs });
      await app.ready();
      instances.push(heldApp({ app, db: database.db, config, dataDir }));
    }
  } catch (error) {
    for (const instance of instances) await instance.close();
    await shared.close();
    throw error;
  }
  return {
    instances,
    async close() {
      for (const instance of instances) await instance.close();
      await shared.close();
    },
  };
}

/** Asks until `check` holds, for at most `ms`: how changes from another instance are awaited. */
export async function eventually(check: () => Promise<boolean>, ms = 5000) {
  const until = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > until) throw new Error(`not within ${ms} ms`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** One instance for the tests of the calling `describe`: made before them, closed after them. */
export function oneInstance(options: Parameters<typeof sharedInstances>[1] = {}): TestApp {
  const instance = {} as TestApp;
  let close: (() => Promise<void>) | undefined;
  beforeAll(async () => {
    const shared = await sharedInstances(1, options);
    Object.assign(instance, shared.instances[0]);
    close = shared.close;
  });
  afterAll(() => close?.());
  return instance;
}
