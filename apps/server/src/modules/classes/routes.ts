// HTTP shape of /api/classes/sessions/: the caller's sessions, and scheduling one.
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { session, sessionInput } from '@mooz/contract/courses';
import { dataEnvelope, errorEnvelope } from '@mooz/contract/envelope';
import { allow, authenticate, currentUser } from '../../http/authenticate';
import type { SessionsService } from './service';

// A course named in a body may not exist; the statuses every route of its shape can answer are declared centrally.
const failures = { 404: errorEnvelope };
const security = [{ bearer: [] }];

export const sessionRoutes: FastifyPluginAsyncZod<{ sessions: SessionsService }> = async (app, { sessions }) => {
  const tags = ['classes'];

  app.get(
    '/classes/sessions/',
    {
      onRequest: [authenticate, allow('read', 'Session')],
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
      onRequest: [authenticate, allow('create', 'Session')],
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
