// HTTP shape of recordings: the lists, one recording, deleting one, watch progress (service.ts), and the
// upload from disk (upload.ts, in a scope of its own that alone reads multipart bodies).
import type { FastifyPluginAsync } from 'fastify';
import { endpoints } from '@mooz/contract/endpoints';
import { currentUser } from '../../http/authenticate';
import { route } from '../../http/route';
import type { RecordingsService } from './service';
import { uploadRoutes, type Uploads } from './upload';

export const recordingRoutes: FastifyPluginAsync<{ recordings: RecordingsService; upload: Uploads }> = async (app, { recordings, upload }) => {
  route(app, endpoints.recordings.list, (req) => recordings.list(currentUser(req), req.query));
  route(app, endpoints.recordings.get, (req) => recordings.get(currentUser(req), req.params.id));
  route(app, endpoints.recordings.remove, (req) => recordings.remove(currentUser(req), req.params.id));
  route(app, endpoints.recordings.progress, (req) => recordings.progress(currentUser(req), req.params.id, req.body));
  await app.register(uploadRoutes, { upload });
};
