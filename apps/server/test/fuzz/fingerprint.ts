// A cheap fingerprint of everything the app stores: for each table of the public schema, its row count
// and a hash over its rows (each row as JSON), in one query. Tables are discovered from the
// catalogue, so a table added later is covered without a change here.
//
// A few columns may change on a refused request by design (the contract says so); they are hashed
// apart, so a test can allow exactly those on exactly the routes where the contract allows them:
//   otp_codes.attempts, otp_codes.consumed_at: a wrong code is refused (400) and still counts a try;
//     the try that uses up the last one burns the code ("5 wrong tries burn the code").
//   refresh_tokens.revoked_at: replaying a used or revoked refresh token is refused (401) and revokes
//     the whole family ("reusing a revoked one revokes the whole family").
// No column is excluded everywhere: the rate-limit counters live in memory or Redis, not in the
// database, so they are outside the fingerprint anyway.
import { sql } from 'drizzle-orm';
import type { Database } from '../../src/db/client';

/** Columns hashed apart: `table.column`. */
export const guardedColumns = ['otp_codes.attempts', 'otp_codes.consumed_at', 'refresh_tokens.revoked_at'] as const;
export type GuardedColumn = (typeof guardedColumns)[number];

/** table → "count:hash" of the rows without guarded columns; `table.column` → hash of that column. */
export type Fingerprint = Record<string, string>;

const ident = (name: string) => `"${name.replaceAll('"', '""')}"`;
const literal = (text: string) => `'${text.replaceAll("'", "''")}'`;

/**
 * An order-independent hash of a set of rows: the sum of each row's 64-bit hash (no sort, so it stays
 * cheap as tables grow). Any change to a row changes the sum but with a chance of about 2⁻⁶⁴.
 */
const multisetHash = (rowText: string) => `coalesce(sum(hashtextextended(${rowText}, 0)::numeric), 0)::text`;

function rowsOf<T>(result: unknown): T[] {
  return ((result as { rows?: T[] }).rows ?? (result as T[])) as T[];
}

export async function fingerprinter(db: Database): Promise<{ tables: string[]; take(): Promise<Fingerprint> }> {
  const columns = rowsOf<{ table_name: string; column_name: string }>(
    await db.execute(
      sql.raw(
        `select c.table_name, c.column_name from information_schema.columns c
           join information_schema.tables t on t.table_schema = c.table_schema and t.table_name = c.table_name
          where c.table_schema = 'public' and t.table_type = 'BASE TABLE'
          order by c.table_name, c.ordinal_position`,
      ),
    ),
  );
  const tables = [...new Set(columns.map((c) => c.table_name))];
  const parts: string[] = [];
  for (const table of tables) {
    const guarded = guardedColumns.filter((g) => g.startsWith(`${table}.`)).map((g) => g.slice(table.length + 1));
    const present = guarded.filter((g) => columns.some((c) => c.table_name === table && c.column_name === g));
    const stripped = `(to_jsonb(t)${present.map((g) => ` - ${literal(g)}`).join('')})::text`;
    parts.push(`${literal(table)}, (select count(*) || ':' || ${multisetHash(stripped)} from ${ident(table)} t)`);
    for (const column of present) {
      const pair = `${stripped} || '=' || coalesce(to_jsonb(t.${ident(column)})::text, 'null')`;
      parts.push(`${literal(`${table}.${column}`)}, (select ${multisetHash(pair)} from ${ident(table)} t)`);
    }
  }
  const query = sql.raw(`select json_build_object(${parts.join(', ')})::text as fp`);
  return {
    tables,
    async take() {
      const [row] = rowsOf<{ fp: string }>(await db.execute(query));
      return JSON.parse(row!.fp) as Fingerprint;
    },
  };
}

/** The keys whose value differs: tables (`users`) and guarded columns (`otp_codes.attempts`). */
export function differences(before: Fingerprint, after: Fingerprint): string[] {
  const keys = new Set([...Object.keys(before), ...Object.keys(after)]);
  return [...keys].filter((k) => before[k] !== after[k]).sort();
}
