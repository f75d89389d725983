// Changes that drop what processes keep in memory (infrastructure/cache.ts): tables written, and token
// families revoked. A change is applied in this process at once, and carried to every other process
// sharing the database: over Redis pub/sub when REDIS_URL is set, else over the database's own
// LISTEN/NOTIFY. While the carrier is down nothing arrives; the caches' short lifetime bounds what is
// missed, and everything is dropped when it comes back.
import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { Redis } from 'ioredis';
import { ALL_TABLES } from '../db/changes';
import { watchRedis } from './redis';
import type { DatabaseHandle } from '../db/client';

export type Change =
  /** Rows of these tables were written (`*`: of any table). */
  | { kind: 'tables'; tables: string[] }
  /** A token family was revoked (logout, a replayed refresh token). */
  | { kind: 'family'; familyId: string }
  /** Every family of a user but `except` was revoked (password change or reset). */
  | { kind: 'families-of'; userId: number; except?: string }
  /** An admin deactivated the account: its live sockets are closed wherever they are. */
  | { kind: 'account-closed'; userId: number }
  /** Changes may have been missed (the carrier was down): drop everything. */
  | { kind: 'everything' };

interface Transport {
  name: string;
  start(onMessage: (payload: string) => void, onReconnect: () => void): Promise<void>;
  send(payload: string): Promise<unknown>;
  stop(): Promise<void>;
}

export interface ChangeBus {
  /** Applies a change here, now, and sends it to the other processes. */
  publish(change: Change): void;
  /** Every change, from here or elsewhere. */
  subscribe(listener: (change: Change) => void): () => void;
  /** Calls `listener` on any change to one of `tables`; only changes to watched tables leave the process. */
  onTables(tables: readonly string[], listener: () => void): void;
  /** What the write feed saw: kept to the watched tables, then published. */
  written(tables: readonly string[]): void;
  /** Starts hearing the other processes. */
  start(): Promise<void>;
  close(): Promise<void>;
}

export function createChangeBus(options: { transport: Transport | null; log: FastifyBaseLogger }): ChangeBus {
  const origin = randomUUID();
  const listeners = new Set<(change: Change) => void>();
  const watched = new Set<string>();
  const { transport, log } = options;
  let reported = false;

  const deliver = (change: Change) => {
    for (const listener of listeners) listener(change);
  };

  const bus: ChangeBus = {
    publish(change) {
      deliver(change);
      if (!transport) return;
      transport.send(JSON.stringify({ origin, change })).then(
        () => {
          reported = false;
        },
        (error: unknown) => {
          if (reported) return;
          reported = true;
          log.warn({ err: error, transport: transport.name }, 'a change could not be sent to the other processes; their caches expire it');
        },
      );
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    onTables(tables, listener) {
      for (const table of tables) watched.add(table);
      bus.subscribe((change) => {
        if (change.kind === 'everything') listener();
        else if (change.kind === 'tables' && change.tables.some((table) => table === ALL_TABLES || tables.includes(table))) listener();
      });
    },
    written(tables) {
      const relevant = tables.filter((table) => table === ALL_TABLES || watched.has(table));
      if (relevant.length) bus.publish({ kind: 'tables', tables: relevant });
    },
    async start() {
      await transport?.start(
        (payload) => {
          let message: { origin?: string; change?: Change };
          try {
            message = JSON.parse(payload) as typeof message;
          } catch {
            return;
          }
          if (message.origin !== origin && message.change) deliver(message.change);
        },
        () => deliver({ kind: 'everything' }),
      );
    },
    async close() {
      await transport?.stop();
    },
  };
  return bus;
}

/**
 * Redis pub/sub on a subscriber connection of its own, which subscribes each time it is (again) ready:
 * start-up does not wait for Redis, as the rest of the app does not.
 */
export function redisTransport(redis: Redis, channel: string, log: FastifyBaseLogger): Transport {
  const subscriber = watchRedis(redis.duplicate({ autoResubscribe: false }), log, 'cache changes');
  return {
    name: 'redis',
    async start(onMessage, onReconnect) {
      subscriber.on('message', (from: string, payload: string) => {
        if (from === channel) onMessage(payload);
      });
      // After a reconnection what was published meanwhile is lost: drop everything once subscribed.
      subscriber.on('ready', () => {
        subscriber.subscribe(channel).then(onReconnect, () => {});
      });
      // Waits for the first subscription, or for Redis to refuse it (a few retries), never longer.
      await subscriber.subscribe(channel).catch(() => {});
    },
    send: (payload) => redis.publish(channel, payload),
    async stop() {
      await subscriber.quit().catch(() => subscriber.disconnect());
    },
  };
}

/** PostgreSQL's (or PGlite's) LISTEN/NOTIFY on the database the processes share. */
export function databaseTransport(database: DatabaseHandle, channel: string): Transport {
  let unlisten: (() => Promise<void>) | null = null;
  return {
    name: 'database',
    async start(onMessage, onReconnect) {
      unlisten = await database.listen(channel, onMessage, onReconnect);
    },
    send: (payload) => database.db.execute(sql`select pg_notify(${channel}, ${payload})`),
    async stop() {
      await unlisten?.();
    },
  };
}
