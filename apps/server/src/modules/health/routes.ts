// GET /api/health: 200 {"status":"ok"} while the database (and Redis, when configured) answer; 503
// naming what is down otherwise, so a load balancer or an operator sees it at once.
import { sql } from 'drizzle-orm';
import type { FastifyPluginAsync } from 'fastify';
import { endpoints } from '@mooz/contract/endpoints';
import { route } from '../../http/route';
import { messages } from '@mooz/contract/messages';

const CHECK_TIMEOUT_MS = 2000;

function within<T>(ms: number, work: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
  });
  return Promise.race([work, late]).finally(() => clearTimeout(timer));
}

export const healthRoutes: FastifyPluginAsync = async (app) => {
  route(app, endpoints.health, async (_req, reply) => {
    const down: Record<string, string[]> = {};
    const checks: Promise<void>[] = [
      // The database answers, so the migrations that ran before listen() are in place.
      within(CHECK_TIMEOUT_MS, app.db.execute(sql`select 1`)).then(
        () => undefined,
        (error: Error) => void (down.database = [error.message]),
      ),
    ];
    const redis = app.redis;
    if (redis) {
      checks.push(
        (redis.status === 'ready' ? within(CHECK_TIMEOUT_MS, redis.ping()) : Promise.reject(new Error(`connection ${redis.status}`))).then(
          () => undefined,
          (error: Error) => void (down.redis = [error.message]),
        ),
      );
    }
    await Promise.all(checks);
    if (Object.keys(down).length) {
      return reply.status(503).header('retry-after', '5').send({ message: messages.serviceUnavailable, errors: down });
    }
    return { status: 'ok' as const };
  });
};
