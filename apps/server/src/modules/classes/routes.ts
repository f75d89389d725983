// HTTP shape of /api/classes/sessions/: the caller's sessions, and scheduling one.
import type { FastifyPluginAsync } from 'fastify';
import { endpoints } from '@mooz/contract/endpoints';
import { currentUser } from '../../http/authenticate';
import { route } from '../../http/route';
import type { SessionsService } from './service';

export const sessionRoutes: FastifyPluginAsync<{ sessions: SessionsService }> = async (app, { sessions }) => {
  route(app, endpoints.sessions.list, (req) => sessions.list(currentUser(req)));
  route(app, endpoints.sessions.schedule, (req) => sessions.schedule(currentUser(req), req.body));
};
