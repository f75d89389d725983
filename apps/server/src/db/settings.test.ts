// Every connection starts with the settings of settings.ts, on PGlite and on PostgreSQL alike.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase } from '../../test/database';
import { trigramWordThreshold } from './settings';

describe('connection settings', () => {
  let handle: Awaited<ReturnType<typeof createTestDatabase>>;
  beforeAll(async () => {
    handle = await createTestDatabase();
  });
  afterAll(async () => {
    await handle?.close();
  });

  it("set pg_trgm's threshold and turn JIT compilation off on every connection", async () => {
    const rows = async () =>
      (
        (await handle.db.execute(sql`select current_setting('pg_trgm.word_similarity_threshold') as threshold, current_setting('jit') as jit`)) as unknown as {
          rows: Array<{ threshold: string; jit: string }>;
        }
      ).rows[0];
    // Several at once, so a pool opens more than one connection.
    const all = await Promise.all([rows(), rows(), rows(), rows()]);
    for (const row of all) expect(row).toEqual({ threshold: String(trigramWordThreshold), jit: 'off' });
  });
});
