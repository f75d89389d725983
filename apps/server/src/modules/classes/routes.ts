// HTTP shape of /api/classes/sessions/: the caller's sessions, scheduling one, and a teacher's changes to one.
import type { FastifyPluginAsync } from 'fastify';
import { endpoints } from '@mooz/contract/endpoints';
import { currentUser } from '../../http/authenticate';
import { route } from '../../http/route';
import type { SessionsService } from './service';
import type { SessionChanges } from './session-changes';

export const sessionRoutes: FastifyPluginAsync<{ sessions: SessionsService; changes: SessionChanges }> = async (app, { sessions, changes }) => {
  route(app, endpoints.sessions.list, (req) => sessions.list(currentUser(req)));
  route(app, endpoints.sessions.schedule, (req) => sessions.schedule(currentUser(req), req.body));
  route(app, endpoints.sessions.update, (req) => changes.update(currentUser(req), req.params.id, req.body));
  route(app, endpoints.sessions.cancel, (req) => changes.cancel(currentUser(req), req.params.id, req.body));
  route(app, endpoints.sessions.attendance, (req) => changes.attendance(currentUser(req), req.params.id));
};
