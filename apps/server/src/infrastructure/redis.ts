// Redis connections that survive an outage. ioredis reconnects by itself, but an `error` event with no
// listener would throw and end the process: every client gets one, logged once per outage.
import { Redis } from 'ioredis';
import type { FastifyBaseLogger } from 'fastify';

export function watchRedis(client: Redis, log: FastifyBaseLogger, role: string): Redis {
  let reported = false;
  client.on('error', (error: Error) => {
    if (reported) return;
    reported = true;
    log.warn({ err: error, role }, 'Redis is unreachable; retrying in the background');
  });
  client.on('ready', () => {
    if (reported) log.info({ role }, 'Redis is back');
    reported = false;
  });
  return client;
}

export function connectRedis(url: string, log: FastifyBaseLogger): Redis {
  // A command waits through at most a few reconnection attempts, then fails instead of hanging.
  return watchRedis(new Redis(url, { maxRetriesPerRequest: 3 }), log, 'main');
}
