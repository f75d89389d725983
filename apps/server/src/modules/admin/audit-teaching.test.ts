import { afterEach, beforeEach, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../../test/app';
import { signedIn } from '../../../test/accounts';
import { createCourse } from '../../../test/courses';
import { sessionAt } from '../../../test/sessions';
import { auditLog } from '../../db/schema/index';

let t: TestApp;
beforeEach(async () => {
  t = await buildTestApp();
});
afterEach(async () => {
  await t.close();
});

const send = (method: 'POST' | 'PATCH' | 'DELETE', url: string, payload: unknown, headers: Record<string, string>) =>
  t.app.inject({ method, url, payload: payload as object, headers });

it("records what an admin does to a teacher's sessions and courses, and not what the teacher does", async () => {
  const teacher = await signedIn(t, 'teacher');
  const admin = await signedIn(t, 'admin');
  const course = await createCourse(t, teacher.headers);
  const mine = await sessionAt(t, course.id, 'Teacher moves this', 120);
  const theirs = await sessionAt(t, course.id, 'Admin cancels this', 180);
  expect((await send('PATCH', `/api/classes/sessions/${mine.id}/`, { title: 'Moved by its teacher' }, teacher.headers)).statusCode).toBe(200);
  expect((await send('POST', `/api/classes/sessions/${theirs.id}/cancel/`, { reason: 'Teacher is ill' }, admin.headers)).statusCode).toBe(200);
  expect((await send('DELETE', `/api/courses/${course.id}/`, undefined, admin.headers)).json().data).toEqual({ outcome: 'deleted' });

  const rows = await t.db.select().from(auditLog).orderBy(auditLog.id);
  expect(rows.map((r) => [r.actorId, r.action, r.targetType, r.targetId])).toEqual([
    [admin.user.id, 'session.cancel', 'session', String(theirs.id)],
    [admin.user.id, 'course.delete', 'course', String(course.id)],
  ]);
  expect(rows[0]!.details).toEqual({ reason: 'Teacher is ill' });
});
