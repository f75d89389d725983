// Apps whose reminders and calendars run on a clock the test moves, with the mail they send kept in
// memory: one on a fresh database, or several on one database as several server processes would be.
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { buildApp } from '../src/app';
import { loadConfig } from '../src/config';
import type { DatabaseHandle } from '../src/db/client';
import type { Mail } from '../src/infrastructure/mail';
import type { TestApp } from './app';
import { createSharedTestDatabase, createTestDatabase } from './database';

export interface Clock {
  at: Date;
  /** Moves the clock to `minutes` from the real now. */
  set(minutes: number): void;
}

function testClock(): Clock {
  const clock = {
    at: new Date(),
    set(minutes: number) {
      clock.at = new Date(Date.now() + minutes * 60_000);
    },
  };
  return clock;
}

/** Every mail sent, by any of the apps that share it. */
function mailbox() {
  const sent: Mail[] = [];
  return { sent, mailer: { send: async (mail: Mail) => void sent.push(mail) } };
}

async function clockedApp(database: DatabaseHandle, clock: Clock, mailer: ReturnType<typeof mailbox>['mailer'], prefix: string, env: Record<string, string>) {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'mooz-clocked-'));
  const config = loadConfig({
    DATA_DIR: dataDir,
    WEB_DIST: dataDir,
    LOG_LEVEL: 'silent',
    JWT_SECRET: 'test-secret-that-is-long-enough-to-sign-tokens',
    SEED_DEMO: '0',
    REDIS_URL: process.env.REDIS_URL ?? '',
    REDIS_PREFIX: prefix,
    PUBLIC_URL: 'https://mooz.example.com/',
    ...env,
  });
  const app = await buildApp(config, { database, mailer, now: () => clock.at, reminderPollMs: 0 });
  await app.ready();
  return { app, db: database.db, config, dataDir, close: async () => void (await app.close(), rmSync(dataDir, { recursive: true, force: true })) };
}

export async function clockedApps(count: number, env: Record<string, string> = {}) {
  const clock = testClock();
  const box = mailbox();
  const prefix = `mooz-test:${randomUUID()}:`;
  const shared = count === 1 ? null : await createSharedTestDatabase(count);
  const single = shared ? null : await createTestDatabase();
  const handles = shared ? shared.handles : [single!];
  const apps: TestApp[] = [];
  for (const handle of handles) apps.push(await clockedApp(handle, clock, box.mailer, prefix, env));
  return {
    apps,
    clock,
    sent: box.sent,
    async close() {
      for (const app of apps) await app.close();
      await (shared ? shared.close() : single!.close());
    },
  };
}
