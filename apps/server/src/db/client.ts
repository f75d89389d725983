// One database handle for both storage paths: PGlite persisted under DATA_DIR by default, PostgreSQL
// when DATABASE_URL is set. Same schema, same drizzle-kit migrations, applied at start-up.
import path from 'node:path';
import { mkdirSync } from 'node:fs';
import { PGlite, type PGliteOptions } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import pg from 'pg';
import * as schema from './schema/index';
import { lockDataDir } from './data-dir-lock';
import { releaseClientsOfFailedTransactions } from './pooled-transactions';
import { createWriteFeed, watchPglite, watchPgPool, type WriteFeed } from './changes';
import { settingStatements, withStartupSettings } from './settings';

export type Database = PgDatabase<PgQueryResultHKT, typeof schema>;

export interface DatabaseHandle {
  db: Database;
  kind: 'pglite' | 'postgres';
  /** The tables each committed write through `db` wrote (db/changes.ts). */
  writes: WriteFeed;
  /** LISTEN on a channel of this database (NOTIFY is `select pg_notify(...)` through `db`); resolves to the stop function. */
  listen(channel: string, onMessage: (payload: string) => void, onReconnect: () => void): Promise<() => Promise<void>>;
  close(): Promise<void>;
}

const migrationsFolder = path.join(import.meta.dirname, '../../drizzle');

// Several server processes may start at once against one PostgreSQL: only one migrates at a time.
const MIGRATION_LOCK = 7_246_001;

export async function openPostgres(url: string, { migrate = true } = {}): Promise<DatabaseHandle> {
  releaseClientsOfFailedTransactions();
  const pool = new pg.Pool({ connectionString: withStartupSettings(url), max: 10 });
  // An idle connection dropped by the server must not take the process down; the pool reconnects.
  pool.on('error', (error) => console.error('PostgreSQL connection error:', error.message));
  // Nor one dropped while checked out (inside a transaction, between its statements): the pool listens
  // only to idle connections, so each one gets its own listener; the statement in flight still fails,
  // and the broken connection is not given out again.
  pool.on('connect', (client) => client.on('error', (error) => console.error('PostgreSQL connection lost in use:', error.message)));
  const { feed, written } = createWriteFeed();
  watchPgPool(pool, written);
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
    writes: feed,
    listen: (channel, onMessage, onReconnect) => listenPostgres(url, channel, onMessage, onReconnect),
    close: () => pool.end(),
  };
}

/** A connection of its own that LISTENs, reconnecting (and saying so) when it is lost. */
async function listenPostgres(url: string, channel: string, onMessage: (payload: string) => void, onReconnect: () => void) {
  let client: pg.Client | null = null;
  let stopped = false;
  let retry: NodeJS.Timeout | undefined;
  const connect = async (again: boolean) => {
    const next = new pg.Client({ connectionString: url });
    next.on('notification', (message) => {
      if (message.channel === channel) onMessage(message.payload ?? '');
    });
    const lost = () => {
      if (client !== next || stopped) return;
      client = null;
      next.end().catch(() => {});
      retry = setTimeout(() => void connect(true).catch(() => {}), 1000);
    };
    next.on('error', lost);
    next.on('end', lost);
    client = next;
    try {
      await next.connect();
      await next.query(`listen "${channel}"`);
      if (again) onReconnect();
    } catch (error) {
      lost();
      if (!again) throw error;
    }
  };
  await connect(false);
  return async () => {
    stopped = true;
    clearTimeout(retry);
    await client?.end().catch(() => {});
  };
}

/** A PGlite with the extensions our migrations create (pg_trgm for search); every PGlite is made here. */
export function createPglite(dataDir?: string, options: PGliteOptions = {}): Promise<PGlite> {
  return PGlite.create({ ...options, dataDir, extensions: { pg_trgm } });
}

/** A handle on a PGlite client; several handles on one client (tests) each tell only their own writes. */
export async function openPglite(client: PGlite, { migrate = true } = {}): Promise<DatabaseHandle> {
  await client.exec(settingStatements);
  const { feed, written } = createWriteFeed();
  const db = drizzlePglite(watchPglite(client, written), { schema });
  if (migrate) await migratePglite(db, { migrationsFolder });
  return {
    db: db as unknown as Database,
    kind: 'pglite',
    writes: feed,
    async listen(channel, onMessage) {
      const unlisten = await client.listen(channel, onMessage);
      return () => unlisten();
    },
    close: () => client.close(),
  };
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
    const handle = await openPglite(await createPglite(dir));
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
