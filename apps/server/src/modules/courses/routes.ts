// HTTP shape of /api/courses/*: parse, call the service, answer in the envelope.
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { course, courseIdParams, courseInput, coursePatch, myCourse } from '@mooz/contract/courses';
import { dataEnvelope, errorEnvelope } from '@mooz/contract/envelope';
import { allow, authenticate, currentUser } from '../../http/authenticate';
import type { CoursesService } from './service';

// A course named in a body may not exist; the statuses every route of its shape can answer are declared centrally.
const failures = { 404: errorEnvelope };
const security = [{ bearer: [] }];

export const courseRoutes: FastifyPluginAsyncZod<{ courses: CoursesService }> = async (app, { courses }) => {
  const tags = ['courses'];

  app.get(
    '/courses/',
    {
      onRequest: [authenticate, allow('read', 'Course')],
      schema: { tags, security, summary: 'Published courses', response: { 200: dataEnvelope(z.array(course)), ...failures } },
    },
    async (req) => courses.catalogue(currentUser(req)),
  );

  app.get(
    '/courses/my_courses/',
    {
      onRequest: [authenticate, allow('read', 'MyCourse')],
      schema: {
        tags,
        security,
        summary: "The caller's paid courses with their enrollment; teachers: the courses they teach",
        response: { 200: dataEnvelope(z.array(myCourse)), ...failures },
      },
    },
    async (req) => courses.myCourses(currentUser(req)),
  );

  app.get(
    '/courses/:id/',
    {
      onRequest: [authenticate, allow('read', 'Course')],
      schema: { tags, security, summary: 'One course', params: courseIdParams, response: { 200: dataEnvelope(course), ...failures } },
    },
    async (req) => courses.course(currentUser(req), req.params.id),
  );

  app.post(
    '/courses/',
    {
      onRequest: [authenticate, allow('create', 'Course')],
      schema: { tags, security, summary: 'Create a course (teachers, admins)', body: courseInput, response: { 201: dataEnvelope(course), ...failures } },
    },
    async (req, reply) => reply.status(201).send(await courses.create(currentUser(req), req.body)),
  );

  app.patch(
    '/courses/:id/',
    {
      // The rule's condition (their own course) is checked against the row in the service.
      onRequest: [authenticate, allow('update', 'Course')],
      schema: {
        tags,
        security,
        summary: 'Edit a course (its teacher, admins)',
        params: courseIdParams,
        body: coursePatch,
        response: { 200: dataEnvelope(course), ...failures },
      },
    },
    async (req) => courses.update(currentUser(req), req.params.id, req.body),
  );
};
