// One database handle for both storage paths: PGlite persisted under DATA_DIR by default, PostgreSQL
// when DATABASE_URL is set. Same schema, same drizzle-kit migrations, applied at start-up.
import path from 'node:path';
import { mkdirSync } from 'node:fs';
import { PGlite } from '@electric-sql/pglite';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import pg from 'pg';
import * as schema from './schema/index';
import { lockDataDir } from './data-dir-lock';

export type Database = PgDatabase<PgQueryResultHKT, typeof schema>;

export interface DatabaseHandle {
  db: Database;
  kind: 'pglite' | 'postgres';
  close(): Promise<void>;
}

export const migrationsFolder = path.join(import.meta.dirname, '../../drizzle');

// Several server processes may start at once against one PostgreSQL: only one migrates at a time.
const MIGRATION_LOCK = 7_246_001;

export async function openPostgres(url: string, { migrate = true } = {}): Promise<DatabaseHandle> {
  const pool = new pg.Pool({ connectionString: url, max: 10 });
  // An idle connection dropped by the server must not take the process down; the pool reconnects.
  pool.on('error', (error) => console.error('PostgreSQL connection error:', error.message));
  if (migrate) {
    const client = await pool.connect();
    try {
      await client.query('select pg_advisory_lock($1)', [MIGRATION_LOCK]);
      await migratePg(drizzlePg(client, { schema }), { migrationsFolder });
      await client.query('select pg_advisory_unlock($1)', [MIGRATION_LOCK]);
    } finally {
      client.release();
    }
  }
  return {
    db: drizzlePg(pool, { schema }) as unknown as Database,
    kind: 'postgres',
    close: () => pool.end(),
  };
}

export async function openPglite(client: PGlite, { migrate = true } = {}): Promise<DatabaseHandle> {
  const db = drizzlePglite(client, { schema });
  if (migrate) await migratePglite(db, { migrationsFolder });
  return { db: db as unknown as Database, kind: 'pglite', close: () => client.close() };
}

export async function openDatabase(options: { databaseUrl?: string; dataDir: string }): Promise<DatabaseHandle> {
  if (options.databaseUrl) return openPostgres(options.databaseUrl);
  const release = await lockDataDir(options.dataDir, (error) => {
    // Someone removed or took our lock while we run: say so loudly, but keep serving.
    console.error(`The lock on DATA_DIR ${options.dataDir} was lost: ${error.message}`);
  });
  try {
    const dir = path.join(options.dataDir, 'pgdata');
    mkdirSync(dir, { recursive: true });
    const handle = await openPglite(new PGlite(dir));
    return {
      ...handle,
      async close() {
        await handle.close();
        await release();
      },
    };
  } catch (error) {
    await release();
    throw error;
  }
}
