// The socket.io Redis adapter, on two connections of its own that outlive a Redis outage. The adapter
// publishes without handling the promise (a rejection while Redis is away would end the process) and
// has no `error` handlers: both are added here, and failures are logged at warn, once per outage.
import { once } from 'node:events';
import type { FastifyInstance } from 'fastify';
import type { Redis } from 'ioredis';
import { createAdapter } from '@socket.io/redis-adapter';
import { watchRedis } from '../infrastructure/redis';
import type { RealtimeServer } from './sockets';

/** Makes the promises of `methods` handled, reporting their rejections instead. */
function handleRejections(client: Redis, methods: readonly string[], report: (error: unknown) => void) {
  const calls = client as unknown as Record<string, (...args: unknown[]) => unknown>;
  for (const name of methods) {
    const original = calls[name]!.bind(client);
    calls[name] = (...args: unknown[]) => {
      const result = original(...args);
      if (result instanceof Promise) result.catch(report);
      return result;
    };
  }
}

interface SharedAdapter {
  /** Settles once both connections are up and broadcasts reach the other processes (at once when they are). */
  whenConnected(): Promise<void>;
  close(): Promise<void>;
}

export async function useRedisAdapter(app: FastifyInstance, io: RealtimeServer): Promise<SharedAdapter | null> {
  if (!app.config.redisUrl || !app.redis) return null;
  // Broadcasts to other processes are worthless once stale: while Redis is away they fail at once
  // (the local part of each broadcast is delivered regardless).
  const pub = watchRedis(app.redis.duplicate({ enableOfflineQueue: false }), app.log, 'meeting broadcasts');
  // Subscriptions wait for Redis however long it takes; ioredis subscribes again after a reconnection.
  const sub = watchRedis(app.redis.duplicate({ maxRetriesPerRequest: null }), app.log, 'meeting subscriptions');
  let reported = false;
  const report = (error: unknown) => {
    if (reported) return;
    reported = true;
    app.log.warn({ err: error }, 'meeting messages cannot reach other server processes while Redis is unavailable');
  };
  pub.on('ready', () => {
    reported = false;
  });
  handleRejections(pub, ['publish'], report);
  handleRejections(sub, ['subscribe', 'psubscribe', 'unsubscribe', 'punsubscribe'], report);

  io.adapter(createAdapter(pub, sub, { key: `${app.config.redisPrefix}socket.io` }));
  io.of('/').adapter.on('error', (error: unknown) => app.log.warn({ err: error }, 'socket.io Redis adapter error'));

  // Start once Redis answers, so the first broadcasts reach the processes already running; when it does
  // not, start anyway: local meetings work without it, and the subscriptions go through when it is back.
  const clients = [pub, sub];
  const pending = clients.filter((client) => client.status !== 'ready');
  if (pending.length) {
    const settled = new AbortController();
    const { signal } = settled;
    await Promise.race([
      Promise.all(pending.map((client) => once(client, 'ready', { signal }))),
      ...pending.map((client) => once(client, 'error', { signal })),
    ]).catch(() => undefined);
    settled.abort();
  }

  return {
    whenConnected: () =>
      Promise.all(clients.map((client) => client.status === 'ready' || new Promise((resolve) => client.once('ready', resolve)))).then(() => undefined),
    async close() {
      // Unsubscribe before quitting; QUIT queues behind it, so nothing is left pending.
      io.of('/').adapter.close();
      await Promise.all(clients.map((client) => (client.status === 'ready' ? client.quit().catch(() => client.disconnect()) : client.disconnect())));
    },
  };
}
