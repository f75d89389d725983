// What a course's teacher (or an admin) does beyond editing it: remove it (delete or archive), and see
// its students, as a list or a CSV file. Who may is the course's edit rule (CoursesService.taughtBy):
// unknown 404, someone else's 403.
import type { FastifyBaseLogger, FastifyReply } from 'fastify';
import { messages } from '@mooz/contract/messages';
import type { CourseRemoval, CourseStudent } from '@mooz/contract/teaching';
import type { Database } from '../../db/client';
import type { AuthUser } from '../../http/authenticate';
import { attachment, toCsv } from '../../infrastructure/csv';
import { auditIfAdmin } from '../admin';
import { removalOf, removeCourse } from './removal';
import { courseStudents, studentsCsvName, studentsCsvRows } from './roster';
import type { CoursesService } from './service';
import type { Storage } from '../recordings';

type Caller = Pick<AuthUser, 'id' | 'userType' | 'ability'>;

export function createCourseTeaching(deps: {
  db: Database;
  courses: CoursesService;
  storage: Pick<Storage, 'delete' | 'deletePrefix'>;
  log: Pick<FastifyBaseLogger, 'error'>;
  now?: () => Date;
}) {
  const now = deps.now ?? (() => new Date());
  return {
    async remove(caller: Caller, id: number): Promise<{ data: CourseRemoval; message: string }> {
      const course = await deps.courses.taughtBy(caller, id);
      const { outcome, left } = await removeCourse(deps.db, course.id, now(), (tx, done) =>
        auditIfAdmin(tx, caller, done === 'deleted' ? 'course.delete' : 'course.archive', { type: 'course', id: course.id }, { name: course.name }),
      );
      // The rows are gone, so nobody can reach these files any more; a failure is disk space, logged.
      const forgotten = (key: string) => (error: unknown) => deps.log.error({ err: error, key }, 'a deleted course kept a stored file');
      await Promise.all([
        ...left.keys.map((key) => deps.storage.delete(key).catch(forgotten(key))),
        ...left.prefixes.map((prefix) => deps.storage.deletePrefix(prefix).catch(forgotten(prefix))),
      ]);
      return { data: { outcome }, message: outcome === 'deleted' ? messages.courseDeleted : messages.courseArchived };
    },

    /** What `remove` would do, for the confirmation a teacher is asked. */
    async removal(caller: Caller, id: number): Promise<{ data: CourseRemoval }> {
      const course = await deps.courses.taughtBy(caller, id);
      return { data: { outcome: await removalOf(deps.db, course.id) } };
    },

    async students(caller: Caller, id: number): Promise<{ data: CourseStudent[] }> {
      const course = await deps.courses.taughtBy(caller, id);
      return { data: await courseStudents(deps.db, course, now()) };
    },

    async studentsCsv(caller: Caller, id: number, reply: FastifyReply): Promise<FastifyReply> {
      const course = await deps.courses.taughtBy(caller, id);
      const at = now();
      const { header, rows } = studentsCsvRows(await courseStudents(deps.db, course, at));
      return reply
        .status(200)
        .header('content-type', 'text/csv; charset=utf-8')
        .header('content-disposition', attachment(studentsCsvName(course.name, at)))
        .header('cache-control', 'no-store')
        .send(toCsv(header, rows));
    },
  };
}

export type CourseTeaching = ReturnType<typeof createCourseTeaching>;
