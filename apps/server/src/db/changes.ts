// Which tables a database handle has written, told the moment a write is committed, so that what is
// kept in memory (infrastructure/cache.ts) is dropped before the writer's next statement runs. It
// watches the driver, not the services: every write made through the handle counts, the services',
// the seed's and a test's alike. Writes made elsewhere reach a process through the change bus
// (infrastructure/change-bus.ts), or, failing that, when the cached copy expires.
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
      return (statement: unknown, ...rest: unknown[]) => {
        for (const table of tablesWritten(textOf(statement))) touched.add(table);
        return (value as AnyFunction).call(target, statement, ...rest);
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
          written(tablesWritten(textOf(statement)));
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
    const after = (text: string, ok: boolean) => {
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
        for (const table of tablesWritten(text)) open.add(table);
      } else {
        written(tablesWritten(text));
      }
    };
    (client as unknown as { query: AnyFunction }).query = (config: unknown, values?: unknown, callback?: unknown) => {
      const text = textOf(config);
      if (typeof values === 'function') [values, callback] = [undefined, values];
      if (typeof callback === 'function') {
        return query(config, values, (error: unknown, result: unknown) => {
          after(text, !error);
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
          after(text, true);
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
