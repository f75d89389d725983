// Which tables a database handle has written, told the moment a write is committed, so that what is
// kept in memory (infrastructure/cache.ts) is dropped before the writer's next statement runs. It
// watches the driver, not the services: every write made through the handle counts, the services',
// the seed's and a test's alike. Writes made elsewhere reach a process through the change bus
// (infrastructure/change-bus.ts), or, failing that, when the cached copy expires.
// A plain insert, update or delete that the database says changed no row wrote nothing: the reminders'
// pass, an UPDATE of class_sessions every 30 s that almost always matches none, dropped every kept
// sessions list in every process each time.
import type { PGlite, Transaction } from '@electric-sql/pglite';
import type pg from 'pg';

/** `*` stands for every table: a statement whose target the watch cannot name. */
export const ALL_TABLES = '*';

export interface WriteFeed {
  /** Calls `listener` after each committed write with the tables it wrote; returns the unsubscriber. */
  subscribe(listener: (tables: readonly string[]) => void): () => void;
}

const reads = /^\s*(?:select|begin|start\s+transaction|commit|end|rollback|savepoint|release|set|show|listen|unlisten|explain|values)\b/i;
// A WITH is a read when no word of a write appears anywhere in it (a data-modifying CTE names one);
// counted as a write of every table, each dashboard read emptied every cache of the process.
const withStatement = /^\s*with\b/i;
const writeWords = /\b(?:insert|update|delete|merge|truncate|copy|call|lock|create|drop|alter|grant|revoke|refresh)\b/i;
const singleWrite = /^\s*(?:insert\s+into|update|delete\s+from)\s+(?:only\s+)?(?:"?\w+"?\.)?"?(\w+)"?/i;

/** The tables a statement writes: none for a read, its target for a plain insert, update or delete, else all. */
export function tablesWritten(statement: string): string[] {
  const text = statement.trimEnd().replace(/;$/, '');
  if (text.includes(';')) return [ALL_TABLES];
  if (reads.test(text)) return [];
  if (withStatement.test(text) && !writeWords.test(text)) return [];
  const target = singleWrite.exec(text)?.[1];
  return [target ?? ALL_TABLES];
}

/** How many rows a statement's result says it changed; undefined when it does not say (or is several results). */
function rowsChanged(result: unknown): number | undefined {
  const one = Array.isArray(result) ? (result.length === 1 ? (result[0] as unknown) : undefined) : result;
  if (typeof one !== 'object' || one === null) return undefined;
  // node-postgres says rowCount (null for a statement without one); PGlite says affectedRows.
  const { rowCount, affectedRows } = one as { rowCount?: number | null; affectedRows?: number };
  const count = rowCount ?? affectedRows;
  return typeof count === 'number' ? count : undefined;
}

/**
 * The tables a statement that ran wrote, knowing its result: none for a plain insert, update or delete
 * that changed no row. Anything else (a WITH, several statements, a result that does not say) keeps
 * what `tablesWritten` answers: the count is the outer statement's, not that of what it wraps.
 */
export function tablesChanged(statement: string, result: unknown): string[] {
  const tables = tablesWritten(statement);
  if (tables.length !== 1 || tables[0] === ALL_TABLES) return tables;
  return rowsChanged(result) === 0 ? [] : tables;
}

export function createWriteFeed() {
  const listeners = new Set<(tables: readonly string[]) => void>();
  const feed: WriteFeed = {
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
  function written(tables: Iterable<string>) {
    const list = [...new Set(tables)];
    if (!list.length) return;
    for (const listener of listeners) listener(list);
  }
  return { feed, written };
}

type Written = (tables: Iterable<string>) => void;
type AnyFunction = (...args: unknown[]) => unknown;

const textOf = (query: unknown) => (typeof query === 'string' ? query : ((query as { text?: string } | null)?.text ?? ''));

/** Records into `touched` what a transaction's statements write. */
function recordingTransaction(tx: Transaction, touched: Set<string>): Transaction {
  return new Proxy(tx, {
    get(target, key) {
      const value = Reflect.get(target, key, target) as unknown;
      if (key !== 'query' && key !== 'exec' && key !== 'sql') return typeof value === 'function' ? (value as AnyFunction).bind(target) : value;
      return async (statement: unknown, ...rest: unknown[]) => {
        const result = await (value as AnyFunction).call(target, statement, ...rest);
        for (const table of tablesChanged(textOf(statement), result)) touched.add(table);
        return result;
      };
    },
  });
}

/** The PGlite client as drizzle should see it: each write told after it ran, a transaction's after it committed. */
export function watchPglite(client: PGlite, written: Written): PGlite {
  return new Proxy(client, {
    get(target, key) {
      const value = Reflect.get(target, key, target) as unknown;
      if (key === 'query' || key === 'exec') {
        return async (statement: unknown, ...rest: unknown[]) => {
          const result = await (value as AnyFunction).call(target, statement, ...rest);
          written(tablesChanged(textOf(statement), result));
          return result;
        };
      }
      if (key === 'transaction') {
        return async (callback: (tx: Transaction) => Promise<unknown>) => {
          const touched = new Set<string>();
          const result = await target.transaction((tx) => callback(recordingTransaction(tx, touched)));
          written(touched);
          return result;
        };
      }
      return typeof value === 'function' ? (value as AnyFunction).bind(target) : value;
    },
  });
}

/**
 * Watches every connection of a node-postgres pool. A connection inside a transaction keeps what it
 * wrote until COMMIT (a ROLLBACK forgets it); outside one, a statement is its own transaction.
 */
export function watchPgPool(pool: pg.Pool, written: Written): void {
  pool.on('connect', (client) => {
    const query = client.query.bind(client) as AnyFunction;
    let open: Set<string> | null = null;
    const after = (text: string, ok: boolean, result?: unknown) => {
      if (/^\s*(?:begin|start\s+transaction)\b/i.test(text)) {
        open = ok ? new Set() : null;
      } else if (/^\s*(?:commit|end)\b/i.test(text)) {
        // A COMMIT that fails ends the transaction too, having written nothing.
        const touched = open ?? new Set<string>();
        open = null;
        if (ok) written(touched);
      } else if (/^\s*rollback\s*;?\s*$/i.test(text)) {
        open = null;
      } else if (!ok) {
        // Nothing written.
      } else if (open) {
        for (const table of tablesChanged(text, result)) open.add(table);
      } else {
        written(tablesChanged(text, result));
      }
    };
    (client as unknown as { query: AnyFunction }).query = (config: unknown, values?: unknown, callback?: unknown) => {
      const text = textOf(config);
      if (typeof values === 'function') [values, callback] = [undefined, values];
      if (typeof callback === 'function') {
        return query(config, values, (error: unknown, result: unknown) => {
          after(text, !error, result);
          (callback as AnyFunction)(error, result);
        });
      }
      const result = query(config, values) as { then?: AnyFunction } | undefined;
      if (typeof result?.then !== 'function') {
        // A submittable (a cursor, a stream): not used for writes here; count it as writing everything.
        written([ALL_TABLES]);
        return result;
      }
      return (result as Promise<unknown>).then(
        (value) => {
          after(text, true, value);
          return value;
        },
        (error: unknown) => {
          after(text, false);
          throw error;
        },
      );
    };
  });
}
