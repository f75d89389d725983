// HTTP shape of /api/dashboard/: the student's and the teacher's dashboards, at the time of the call.
import type { FastifyPluginAsync } from 'fastify';
import { endpoints } from '@mooz/contract/endpoints';
import { currentUser } from '../../http/authenticate';
import { route } from '../../http/route';
import { earnDueCertificates } from '../certificates/earn';
import { createDashboardsService } from './service';

export const dashboardRoutes: FastifyPluginAsync = async (app) => {
  // PGlite is one process (its data directory is locked) whose every write the change bus hears: a
  // student's kept numbers need no short life there. PostgreSQL may have other processes, whose
  // changes could be missed while the carrier is down: 5 s at most without news, as the other caches.
  const cacheTtlMs = app.config.databaseUrl ? 5_000 : 10 * 60_000;
  const dashboards = createDashboardsService({ db: app.db, earnCertificates: (db, userId, now, known) => earnDueCertificates(db, userId, now, known, app.notifications), changes: app.changes, cacheTtlMs });
  route(app, endpoints.dashboards.student, (req) => dashboards.student(currentUser(req), req.query, new Date(Date.now())));
  route(app, endpoints.dashboards.teacher, (req) => dashboards.teacher(currentUser(req), req.query, new Date(Date.now())));
};
