// HTTP shape of /api/classes/sessions/: the caller's sessions, and scheduling one.
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { session, sessionInput } from '@mooz/contract/courses';
import { dataEnvelope, errorEnvelope } from '@mooz/contract/envelope';
import { allow, authenticate, currentUser } from '../../http/authenticate';
import type { SessionsService } from './service';

const failures = { 400: errorEnvelope, 401: errorEnvelope, 403: errorEnvelope, 404: errorEnvelope };
const security = [{ bearer: [] }];

export const sessionRoutes: FastifyPluginAsyncZod<{ sessions: SessionsService }> = async (app, { sessions }) => {
  const tags = ['classes'];

  app.get(
    '/classes/sessions/',
    {
      preHandler: [authenticate, allow('read', 'Session')],
      schema: {
        tags,
        security,
        summary: "The caller's sessions: bought courses (all while in trial), a teacher's own, all for admins",
        response: { 200: dataEnvelope(z.array(session)), ...failures },
      },
    },
    async (req) => sessions.list(currentUser(req)),
  );

  app.post(
    '/classes/sessions/',
    {
      preHandler: [authenticate, allow('create', 'Session')],
      schema: {
        tags,
        security,
        summary: 'Schedule a session in a course one teaches',
        body: sessionInput,
        response: { 201: dataEnvelope(session), ...failures },
      },
    },
    async (req, reply) => reply.status(201).send(await sessions.schedule(currentUser(req), req.body)),
  );
};
