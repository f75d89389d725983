// HTTP shape of /api/admin/*: each declared endpoint answered by the admin service. Who may call is
// the declaration's rule (admins only), checked before anything is read.
import type { FastifyPluginAsync } from 'fastify';
import { endpoints } from '@mooz/contract/endpoints';
import { currentUser } from '../../http/authenticate';
import { route } from '../../http/route';
import type { AdminService } from './service';

export const adminRoutes: FastifyPluginAsync<{ admin: AdminService }> = async (app, { admin }) => {
  const api = endpoints.admin;
  route(app, api.createUser, (req) => admin.createUser(currentUser(req).id, req.body));
  route(app, api.users, (req) => admin.users(req.query));
  route(app, api.deactivateUser, (req) => admin.deactivateUser(currentUser(req).id, req.params.id));
  route(app, api.reactivateUser, (req) => admin.reactivateUser(currentUser(req).id, req.params.id));
  route(app, api.courses, (req) => admin.courses(req.query));
  route(app, api.payments, (req) => admin.payments(req.query));
  route(app, api.refundPayment, (req) => admin.refundPayment(currentUser(req).id, req.params.id));
  route(app, api.overview, () => admin.overview());
  route(app, api.audit, (req) => admin.audit(req.query));
};
