// A fresh, migrated, empty database for one test: a copy of the PostgreSQL template in CI, or a
// PGlite loaded from the snapshot. Always close it, or Node never exits.
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import { inject } from 'vitest';
import { createPglite, openPglite, openPostgres, type DatabaseHandle } from '../src/db/client';

let snapshot: Buffer | undefined;

export async function createTestDatabase(): Promise<DatabaseHandle & { url?: string }> {
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
      url: dbUrl.toString(),
      async close() {
        await handle.close();
        await admin.query(`drop database if exists "${name}" with (force)`);
        await admin.end();
      },
    };
  }
  return openPglite(await freshPglite(), { migrate: false });
}

async function freshPglite(): Promise<PGlite> {
  snapshot ??= readFileSync(inject('pgliteSnapshot'));
  return createPglite(undefined, { loadDataDir: new Blob([snapshot]) });
}

/**
 * `count` handles on one fresh database, as separate processes would hold: each has its own
 * connections (PostgreSQL) or its own view of the one PGlite, and tells only its own writes.
 */
export async function createSharedTestDatabase(count: number): Promise<{ handles: DatabaseHandle[]; close(): Promise<void> }> {
  if (inject('postgresTemplate') && process.env.DATABASE_URL) {
    const first = await createTestDatabase();
    const others: DatabaseHandle[] = [];
    for (let i = 1; i < count; i++) others.push(await openPostgres(first.url!, { migrate: false }));
    return {
      handles: [first, ...others],
      async close() {
        for (const handle of others) await handle.close();
        await first.close();
      },
    };
  }
  const client = await freshPglite();
  const handles: DatabaseHandle[] = [];
  for (let i = 0; i < count; i++) handles.push(await openPglite(client, { migrate: false }));
  return { handles, close: () => client.close() };
}
