// HTTP shape of assignments (service.ts): the JSON endpoints, the two multipart ones (attach, submit)
// in a scope of their own that alone reads multipart bodies, and the signed file route (files.ts).
import multipart from '@fastify/multipart';
import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import { assignmentLimits } from '@mooz/contract/assignments';
import { endpoints } from '@mooz/contract/endpoints';
import { currentUser } from '../../http/authenticate';
import { route } from '../../http/route';
import { fileRoutes } from './files';
import type { AssignmentsService } from './service';

type WithId = FastifyRequest & { params: { id: number } };

const uploadRoutes: FastifyPluginAsync<{ assignments: AssignmentsService }> = async (app, { assignments }) => {
  await app.register(multipart, {
    limits: {
      fileSize: assignmentLimits.fileMaxBytes,
      // One file is taken; a second is seen (and refused, 400) rather than cut off by the parser.
      files: 2,
      fields: 5,
      // The answer's text in UTF-8 (up to 4 bytes a character), with room to say it is too long.
      fieldSize: assignmentLimits.answerMaxLength * 4 + 1024,
      parts: 8,
      headerPairs: 20,
    },
  });
  route(app, endpoints.assignments.attach, (req) => assignments.attach(req as unknown as WithId, currentUser(req)));
  route(app, endpoints.assignments.submit, (req) => assignments.submit(req as unknown as WithId, currentUser(req)));
};

export const assignmentRoutes: FastifyPluginAsync<{ assignments: AssignmentsService }> = async (app, { assignments }) => {
  route(app, endpoints.assignments.list, (req) => assignments.list(currentUser(req), req.params.id));
  route(app, endpoints.assignments.create, (req) => assignments.create(currentUser(req), req.params.id, req.body));
  route(app, endpoints.assignments.one, (req) => assignments.one(currentUser(req), req.params.id));
  route(app, endpoints.assignments.update, (req) => assignments.update(currentUser(req), req.params.id, req.body));
  route(app, endpoints.assignments.remove, (req) => assignments.remove(currentUser(req), req.params.id));
  route(app, endpoints.assignments.detach, (req) => assignments.detach(currentUser(req), req.params.id));
  route(app, endpoints.assignments.submissions, (req) => assignments.submissions(currentUser(req), req.params.id));
  route(app, endpoints.assignments.submission, (req) => assignments.submission(currentUser(req), req.params.id));
  route(app, endpoints.assignments.review, (req) => assignments.review(currentUser(req), req.params.id, req.body));
  await app.register(uploadRoutes, { assignments });
  await app.register(fileRoutes);
};
