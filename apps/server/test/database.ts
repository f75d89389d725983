// A fresh, migrated, empty database for one test: a copy of the PostgreSQL template in CI, or a
// PGlite loaded from the snapshot. Always close it, or Node never exits.
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import { inject } from 'vitest';
import { openPglite, openPostgres, type DatabaseHandle } from '../src/db/client';

let snapshot: Buffer | undefined;

export async function createTestDatabase(): Promise<DatabaseHandle> {
  const template = inject('postgresTemplate');
  const url = process.env.DATABASE_URL;
  if (template && url) {
    const name = `mooz_t_${template.replace('mooz_tpl_', '')}_${randomUUID().replaceAll('-', '').slice(0, 16)}`;
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    await admin.query(`create database "${name}" template "${template}"`);
    const dbUrl = new URL(url);
    dbUrl.pathname = `/${name}`;
    const handle = await openPostgres(dbUrl.toString(), { migrate: false });
    return {
      ...handle,
      async close() {
        await handle.close();
        await admin.query(`drop database if exists "${name}" with (force)`);
        await admin.end();
      },
    };
  }
  snapshot ??= readFileSync(inject('pgliteSnapshot'));
  const client = await PGlite.create({ loadDataDir: new Blob([snapshot]) });
  return openPglite(client, { migrate: false });
}
