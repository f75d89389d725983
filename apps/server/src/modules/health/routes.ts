import { sql } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { healthResponse } from '@mooz/contract/envelope';

export const healthRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/health',
    { schema: { tags: ['health'], summary: 'Ready once the database is migrated', response: { 200: healthResponse } } },
    async () => {
      // The database answers, so the migrations that ran before listen() are in place.
      await app.db.execute(sql`select 1`);
      return { status: 'ok' as const };
    },
  );
};
