import { afterEach, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { drizzle } from 'drizzle-orm/node-postgres';
import pg from 'pg';
import { createTestDatabase } from '../../test/database';
import type { DatabaseHandle } from './client';
import { releaseClientsOfFailedTransactions } from './pooled-transactions';

// Only PostgreSQL has connections to lose; PGlite runs in the process.
describe.runIf(process.env.DATABASE_URL)('a transaction on a pooled PostgreSQL connection', () => {
  let database: DatabaseHandle & { url?: string };
  let pool: pg.Pool;
  afterEach(async () => {
    await pool?.end();
    await database?.close();
  });

  /** A one-connection pool whose every checkout hands out a connection the server has just killed. */
  async function poolOfKilledConnections() {
    database = await createTestDatabase();
    pool = new pg.Pool({ connectionString: database.url, max: 1 });
    pool.on('error', () => {});
    const checkout = pool.connect.bind(pool) as () => Promise<pg.PoolClient>;
    let kill = true;
    (pool as { connect: () => Promise<pg.PoolClient> }).connect = async () => {
      const client = await checkout();
      if (!kill) return client;
      kill = false;
      const lost = new Promise((resolve) => client.once('error', resolve));
      await database.db.execute(sql`select pg_terminate_backend(${(client as unknown as { processID: number }).processID})`);
      await lost;
      return client;
    };
    releaseClientsOfFailedTransactions();
    return drizzle(pool);
  }

  it('gives its connection back when BEGIN fails, so the pool is not drained by lost connections', async () => {
    const db = await poolOfKilledConnections();
    await expect(db.transaction(async (tx) => tx.execute(sql`select 1`))).rejects.toThrow();
    // The dead connection left the pool instead of staying checked out for ever.
    expect(pool.totalCount).toBe(0);
    // And the next caller gets a fresh one rather than waiting: the pool has a single slot.
    const result = await db.transaction(async (tx) => tx.execute(sql`select 42 as answer`));
    expect(result.rows).toEqual([{ answer: 42 }]);
  });
});
