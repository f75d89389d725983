// HTTP shape of /api/courses/{id}/batches/*: each declared endpoint answered by the service.
import type { FastifyPluginAsync } from 'fastify';
import { endpoints } from '@mooz/contract/endpoints';
import { currentUser } from '../../http/authenticate';
import { route } from '../../http/route';
import type { BatchesService } from './service';

export const batchRoutes: FastifyPluginAsync<{ batches: BatchesService }> = async (app, { batches }) => {
  const api = endpoints.batches;
  route(app, api.create, (req) => batches.create(currentUser(req), req.params.id, req.body));
  route(app, api.update, (req) => batches.update(currentUser(req), req.params.id, req.params.batchId, req.body));
  route(app, api.remove, (req) => batches.remove(currentUser(req), req.params.id, req.params.batchId));
};
