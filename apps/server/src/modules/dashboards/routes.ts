// HTTP shape of /api/dashboard/: the student's and the teacher's dashboards, at the time of the call.
import type { FastifyPluginAsync } from 'fastify';
import { endpoints } from '@mooz/contract/endpoints';
import { currentUser } from '../../http/authenticate';
import { route } from '../../http/route';
import type { DashboardsService } from './service';

export const dashboardRoutes: FastifyPluginAsync<{ dashboards: DashboardsService }> = async (app, { dashboards }) => {
  route(app, endpoints.dashboards.student, (req) => dashboards.student(currentUser(req), req.query, new Date(Date.now())));
  route(app, endpoints.dashboards.teacher, (req) => dashboards.teacher(currentUser(req), req.query, new Date(Date.now())));
};
