// The API's endpoints: courses, their batches, and the certificates their students earn. Assembled
// with the others in ../endpoints.ts.
import { z } from 'zod';
import { apiRoutes } from '../api-routes';
import { batch, batchInput, batchParams, batchPatch } from '../batches';
import { awardCertificateBody, certificate, certificateIdParams, certificateVerification } from '../certificates';
import { course, courseIdParams, courseInput, coursePatch, myCourse } from '../courses';
import { endpoint } from '../endpoint';
import { dataEnvelope } from '../envelope';
import { courseRemoval, courseStudent } from '../teaching';
import { done } from './answers';

export const coursesEndpoints = {
  catalogue: endpoint({
    ...apiRoutes.courses.catalogue,
    summary: 'Published courses',
    tags: ['courses'],
    access: ['read', 'Course'],
    status: 200,
    response: dataEnvelope(z.array(course)),
  }),
  mine: endpoint({
    ...apiRoutes.courses.mine,
    summary: "The caller's paid courses with their enrollment; teachers: the courses they teach",
    tags: ['courses'],
    access: ['read', 'MyCourse'],
    status: 200,
    response: dataEnvelope(z.array(myCourse)),
  }),
  one: endpoint({
    ...apiRoutes.courses.one,
    summary: 'One course',
    tags: ['courses'],
    access: ['read', 'Course'],
    params: courseIdParams,
    status: 200,
    response: dataEnvelope(course),
  }),
  create: endpoint({
    ...apiRoutes.courses.create,
    summary: 'Create a course (teachers, admins)',
    tags: ['courses'],
    access: ['create', 'Course'],
    body: courseInput,
    status: 201,
    response: dataEnvelope(course),
  }),
  update: endpoint({
    ...apiRoutes.courses.update,
    summary: 'Edit a course (its teacher, admins)',
    tags: ['courses'],
    // The rule's condition (their own course) is checked against the row in the service.
    access: ['update', 'Course'],
    params: courseIdParams,
    body: coursePatch,
    status: 200,
    response: dataEnvelope(course),
  }),
  remove: endpoint({
    ...apiRoutes.courses.remove,
    summary: 'Delete a course nobody has bought; archive one that was bought (hidden from the catalogue, kept for its students)',
    tags: ['courses'],
    // Their own course for a teacher: checked against the row in the service.
    access: ['delete', 'Course'],
    params: courseIdParams,
    status: 200,
    response: dataEnvelope(courseRemoval),
    failures: [404],
  }),
  removal: endpoint({
    ...apiRoutes.courses.removal,
    summary: 'What DELETE would do to this course now: delete it, or archive it because somebody bought it',
    tags: ['courses'],
    access: ['delete', 'Course'],
    params: courseIdParams,
    status: 200,
    response: dataEnvelope(courseRemoval),
    failures: [404],
  }),
  students: endpoint({
    ...apiRoutes.courses.students,
    summary: 'The students of a course with their batch, payment date and attendance so far (its teacher, admins)',
    tags: ['courses'],
    // Those who may edit a course see who bought it.
    access: ['update', 'Course'],
    params: courseIdParams,
    status: 200,
    response: dataEnvelope(z.array(courseStudent)),
    failures: [404],
  }),
  studentsCsv: endpoint({
    ...apiRoutes.courses.studentsCsv,
    summary: 'The same students as a CSV file (text/csv, an attachment)',
    tags: ['courses'],
    access: ['update', 'Course'],
    params: courseIdParams,
    status: 200,
    response: z.string().meta({ description: 'text/csv' }),
    failures: [404],
  }),
} as const;

export const batchesEndpoints = {
  create: endpoint({
    ...apiRoutes.batches.create,
    summary: "Open a batch of a course one teaches, with its generated sessions",
    tags: ['courses'],
    access: ['update', 'Course'],
    params: courseIdParams,
    body: batchInput,
    status: 201,
    response: dataEnvelope(batch),
    failures: [404, 409],
  }),
  update: endpoint({
    ...apiRoutes.batches.update,
    summary: "Change a batch's seats (not below those sold)",
    tags: ['courses'],
    access: ['update', 'Course'],
    params: batchParams,
    body: batchPatch,
    status: 200,
    response: dataEnvelope(batch),
    failures: [404],
  }),
  remove: endpoint({
    ...apiRoutes.batches.remove,
    summary: 'Remove a batch nobody bought, with its sessions',
    tags: ['courses'],
    access: ['update', 'Course'],
    params: batchParams,
    status: 200,
    response: done,
    failures: [404, 409],
  }),
} as const;

export const certificatesEndpoints = {
  mine: endpoint({
    ...apiRoutes.certificates.mine,
    summary: "The caller's certificates (teachers: those of their courses; admins: all), newest first",
    tags: ['certificates'],
    access: ['read', 'Certificate'],
    status: 200,
    response: dataEnvelope(z.array(certificate)),
  }),
  award: endpoint({
    ...apiRoutes.certificates.award,
    summary: "Award a course's certificate to one of its students by hand (its teacher or an admin)",
    tags: ['certificates'],
    access: ['create', 'Certificate'],
    params: courseIdParams,
    body: awardCertificateBody,
    status: 201,
    response: dataEnvelope(certificate),
    failures: [404, 409, 422],
  }),
  verify: endpoint({
    ...apiRoutes.certificates.verify,
    summary: 'Public: whether a certificate id is genuine, and what it certifies; 404 for an id never issued',
    tags: ['certificates'],
    access: 'public',
    params: certificateIdParams,
    status: 200,
    response: dataEnvelope(certificateVerification),
    failures: [404],
  }),
} as const;
