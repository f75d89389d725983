// HTTP shape of /api/classes/sessions/: the caller's sessions, scheduling one, and a teacher's changes to one.
import type { FastifyPluginAsync } from 'fastify';
import { endpoints } from '@mooz/contract/endpoints';
import { currentUser } from '../../http/authenticate';
import { route } from '../../http/route';
import { createAttendanceReports } from './attendance-live';
import type { SessionsService } from './service';
import type { SessionChanges } from './session-changes';

export const sessionRoutes: FastifyPluginAsync<{ sessions: SessionsService; changes: SessionChanges }> = async (app, { sessions, changes }) => {
  route(app, endpoints.sessions.list, (req) => sessions.list(currentUser(req)));
  route(app, endpoints.sessions.schedule, (req) => sessions.schedule(currentUser(req), req.body));
  route(app, endpoints.sessions.update, (req) => changes.update(currentUser(req), req.params.id, req.body));
  route(app, endpoints.sessions.cancel, (req) => changes.cancel(currentUser(req), req.params.id, req.body));
  const attendance = createAttendanceReports({ db: app.db });
  route(app, endpoints.sessions.attendance, (req) => attendance.bySession(currentUser(req), req.params.id));
  route(app, endpoints.sessions.attendanceCsv, (req, reply) => attendance.csv(currentUser(req), req.params.id, reply));
  route(app, endpoints.sessions.roomAttendance, (req) => attendance.byRoom(currentUser(req), req.params.roomId));
};
