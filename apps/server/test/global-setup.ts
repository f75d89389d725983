// Prepares one migrated database that every server test copies: a PostgreSQL template database when
// DATABASE_URL is set (CI), otherwise a PGlite snapshot made with dumpDataDir().
import { mkdtempSync, writeFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { createPglite, openPglite, openPostgres } from '../src/db/client';

declare module 'vitest' {
  export interface ProvidedContext {
    pgliteSnapshot: string;
    postgresTemplate: string;
  }
}

// Names carry the test run's pid, so parallel runs on one PostgreSQL never drop each other's databases.
const TEMPLATE_DB = `mooz_tpl_${process.pid}`;

function isAlive(pid: number) {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

export default async function setup(project: TestProject) {
  const url = process.env.DATABASE_URL;
  if (url) {
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    // Clear what interrupted runs left behind.
    const leftovers = await admin.query<{ datname: string }>(
      "select datname from pg_database where datname ~ '^mooz_(t|tpl)_[0-9]+'",
    );
    for (const { datname } of leftovers.rows) {
      const pid = Number(datname.match(/^mooz_(?:t|tpl)_(\d+)/)![1]);
      if (!isAlive(pid)) await admin.query(`drop database if exists "${datname}" with (force)`);
    }
    await admin.query(`create database "${TEMPLATE_DB}"`);
    const templateUrl = new URL(url);
    templateUrl.pathname = `/${TEMPLATE_DB}`;
    const handle = await openPostgres(templateUrl.toString());
    await handle.close();
    project.provide('postgresTemplate', TEMPLATE_DB);
    project.provide('pgliteSnapshot', '');
    return async () => {
      // The test files' copies (kept from test to test, test/database.ts), then the template.
      const copies = await admin.query<{ datname: string }>('select datname from pg_database where datname ~ $1', [
        `^mooz_t_${process.pid}_[0-9a-f]+$`,
      ]);
      for (const { datname } of copies.rows) await admin.query(`drop database if exists "${datname}" with (force)`);
      await admin.query(`drop database if exists "${TEMPLATE_DB}" with (force)`);
      await admin.end();
    };
  }

  const handle = await openPglite(await createPglite());
  const client = (handle.db as unknown as { $client: PGlite }).$client;
  const dump = await client.dumpDataDir('none');
  await handle.close();
  const dir = mkdtempSync(path.join(os.tmpdir(), 'mooz-snapshot-'));
  const file = path.join(dir, 'snapshot.tar');
  writeFileSync(file, Buffer.from(await dump.arrayBuffer()));
  project.provide('pgliteSnapshot', file);
  project.provide('postgresTemplate', '');
  return () => rmSync(dir, { recursive: true, force: true });
}
