// A fresh, migrated, empty database for one test: a copy of the PostgreSQL template in CI, or a
// PGlite loaded from the snapshot. Always close it, or Node never exits.
//
// Either is kept, once closed, for the file's next test, and emptied first (TRUNCATE of every table,
// identities restarted), which leaves it as the template or snapshot was (the migrations add no rows):
// - A PGlite loaded from the snapshot costs 1.3-4 s of CPU (the WebAssembly Postgres starting on the
//   unpacked files), most of a server test's time; emptying one, a few tens of milliseconds. What was
//   handed out stops working when closed, as a closed PGlite does, so nothing left running by one test
//   reaches the next one's data.
// - A PostgreSQL copy of the template, then dropped, took about half a second a test; what a test left
//   connected to its database (a LISTEN) is ended before it is emptied, as the drop ended it. The
//   copies are dropped when the run ends (global-setup.ts).
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import { inject } from 'vitest';
import { createPglite, openPglite, openPostgres, type DatabaseHandle } from '../src/db/client';

let snapshot: Buffer | undefined;

/** The public tables, as one TRUNCATE list (the same in every copy). */
const publicTables = "select format('%I.%I', schemaname, tablename) as name from pg_tables where schemaname = 'public' order by 1";
const truncate = (tables: string) => `truncate ${tables} restart identity cascade`;

/** PostgreSQL copies that a test closed, kept for the next one. */
const idleCopies: string[] = [];
let copyTables: string | undefined;

export async function createTestDatabase(): Promise<DatabaseHandle & { url?: string }> {
  const template = inject('postgresTemplate');
  const url = process.env.DATABASE_URL;
  if (template && url) {
    const kept = idleCopies.pop();
    const name = kept ?? `mooz_t_${template.replace('mooz_tpl_', '')}_${randomUUID().replaceAll('-', '').slice(0, 16)}`;
    const dbUrl = new URL(url);
    dbUrl.pathname = `/${name}`;
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    try {
      if (kept) {
        await admin.query('select pg_terminate_backend(pid) from pg_stat_activity where datname = $1 and pid <> pg_backend_pid()', [name]);
      } else {
        await admin.query(`create database "${name}" template "${template}"`);
      }
    } finally {
      await admin.end();
    }
    if (kept || !copyTables) {
      const client = new pg.Client({ connectionString: dbUrl.toString() });
      await client.connect();
      try {
        copyTables ??= (await client.query<{ name: string }>(publicTables)).rows.map((row) => row.name).join(', ');
        if (kept) await client.query(truncate(copyTables));
      } finally {
        await client.end();
      }
    }
    const handle = await openPostgres(dbUrl.toString(), { migrate: false });
    let open = true;
    return {
      ...handle,
      url: dbUrl.toString(),
      async close() {
        if (!open) return;
        open = false;
        await handle.close();
        idleCopies.push(name);
      },
    };
  }
  return openPglite(await freshPglite(), { migrate: false });
}

/** PGlites that a test closed, kept for the next one. */
const idle: { client: PGlite; tables: string }[] = [];

async function freshPglite(): Promise<PGlite> {
  const kept = idle.pop();
  if (kept) {
    try {
      await kept.client.exec(truncate(kept.tables));
      return lease(kept.client, kept.tables);
    } catch {
      // Left in a state that cannot be emptied (a transaction still open): start from the snapshot.
      await kept.client.close().catch(() => undefined);
    }
  }
  snapshot ??= readFileSync(inject('pgliteSnapshot'));
  const client = await createPglite(undefined, { loadDataDir: new Blob([snapshot]) });
  const names = await client.query<{ name: string }>(publicTables);
  return lease(client, names.rows.map((row) => row.name).join(', '));
}

/**
 * `client` as a test sees it: its close() stops what the test LISTENed to and gives the client back for
 * the next test, and every call after that fails as on a closed PGlite.
 */
function lease(client: PGlite, tables: string): PGlite {
  let open = true;
  const listeners = new Set<() => Promise<void>>();
  return new Proxy(client, {
    get(target, key) {
      if (key === 'closed') return !open || target.closed;
      if (key === 'close') {
        return async () => {
          if (!open) return;
          open = false;
          for (const stop of [...listeners]) await stop().catch(() => undefined);
          if (target.closed) return;
          if (target.isInTransaction?.()) await target.close();
          else idle.push({ client: target, tables });
        };
      }
      const value = Reflect.get(target, key, target) as unknown;
      if (typeof value !== 'function') return value;
      if (key === 'listen') {
        return async (...args: unknown[]) => {
          if (!open) throw new Error('PGlite is closed');
          const unlisten = (await (value as (...a: unknown[]) => Promise<() => Promise<void>>).apply(target, args)) as () => Promise<void>;
          const stop = async () => {
            listeners.delete(stop);
            await unlisten();
          };
          listeners.add(stop);
          return stop;
        };
      }
      return (...args: unknown[]) => {
        if (!open) return Promise.reject(new Error('PGlite is closed'));
        return (value as (...a: unknown[]) => unknown).apply(target, args);
      };
    },
  });
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
