// What the admin lists share: a page of rows with the total before paging, and text search that
// matches anywhere in a field, whatever its case, with the searcher's % and _ taken literally.
import { ilike, or, sql, type SQL } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';

export interface Paging {
  limit: number;
  offset: number;
}

export const pageOf = <T>(total: number, items: T[]) => ({ total, items });

/** How many rows a query finds (a PostgreSQL bigint would arrive as text). */
export const rowCount = sql<number>`count(*)::int`;

/** A person's name as the admin lists show it. */

/** Rows where any of `fields` contains `text`; no condition when there is no text. */
export function containing(text: string | undefined, fields: (AnyPgColumn | SQL)[]): SQL | undefined {
  if (!text) return undefined;
  const pattern = `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
  return or(...fields.map((field) => ilike(field, pattern)));
}
