// HTTP shape of /api/courses/*: each declared endpoint answered by the service.
import type { FastifyPluginAsync } from 'fastify';
import { endpoints } from '@mooz/contract/endpoints';
import { currentUser } from '../../http/authenticate';
import { route } from '../../http/route';
import type { CoursesService } from './service';

export const courseRoutes: FastifyPluginAsync<{ courses: CoursesService }> = async (app, { courses }) => {
  const api = endpoints.courses;
  route(app, api.catalogue, (req) => courses.catalogue(currentUser(req)));
  route(app, api.mine, (req) => courses.myCourses(currentUser(req)));
  route(app, api.one, (req) => courses.course(currentUser(req), req.params.id));
  route(app, api.create, (req) => courses.create(currentUser(req), req.body));
  route(app, api.update, (req) => courses.update(currentUser(req), req.params.id, req.body));
};
