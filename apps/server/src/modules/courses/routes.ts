// HTTP shape of /api/courses/*: each declared endpoint answered by the service.
import type { FastifyPluginAsync } from 'fastify';
import { endpoints } from '@mooz/contract/endpoints';
import { currentUser } from '../../http/authenticate';
import { route } from '../../http/route';
import type { CoursesService } from './service';
import type { CourseTeaching } from './teaching';

export const courseRoutes: FastifyPluginAsync<{ courses: CoursesService; teaching: CourseTeaching }> = async (app, { courses, teaching }) => {
  const api = endpoints.courses;
  route(app, api.catalogue, (req) => courses.catalogue(currentUser(req)));
  route(app, api.mine, (req) => courses.myCourses(currentUser(req)));
  route(app, api.one, (req) => courses.course(currentUser(req), req.params.id));
  route(app, api.create, (req) => courses.create(currentUser(req), req.body));
  route(app, api.update, (req) => courses.update(currentUser(req), req.params.id, req.body));
  route(app, api.remove, (req) => teaching.remove(currentUser(req), req.params.id));
  route(app, api.removal, (req) => teaching.removal(currentUser(req), req.params.id));
  route(app, api.students, (req) => teaching.students(currentUser(req), req.params.id));
  route(app, api.studentsCsv, (req, reply) => teaching.studentsCsv(currentUser(req), req.params.id, reply));
};
