// What every endpoint does with input it cannot take: a 400 in the envelope (never a 500), before any
// work, and only after the caller has shown who they are.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { buildTestApp, type TestApp } from '../../test/app';
import { signedIn } from '../../test/accounts';
import { createCourse, weekdayChoice } from '../../test/courses';
import { courses, users } from '../db/schema/index';

let t: TestApp;
let student: Awaited<ReturnType<typeof signedIn>>;
let teacher: Awaited<ReturnType<typeof signedIn>>;
let admin: Awaited<ReturnType<typeof signedIn>>;

beforeAll(async () => {
  t = await buildTestApp();
  [student, teacher, admin] = [await signedIn(t, 'student'), await signedIn(t, 'teacher'), await signedIn(t, 'admin')];
});
afterAll(async () => {
  await t.close();
});

const send = (method: 'GET' | 'POST' | 'PATCH', url: string, payload?: unknown, headers: Record<string, string> = {}) =>
  t.app.inject({ method, url, headers, ...(payload !== undefined && { payload: payload as object }) });

describe('text with control characters', () => {
  const nul = 'Al\u0000ice';

  it('is refused with 400 naming the field, on every kind of endpoint, and nothing changes', async () => {
    const course = await createCourse(t, teacher.headers);
    const cases = [
      send('PATCH', '/api/auth/profile/', { first_name: nul }, student.headers),
      send('POST', '/api/auth/register/', { email: 'nul@example.test', password: 'long enough pw', first_name: nul, last_name: 'B' }),
      send('POST', '/api/admin/users/', { email: 'nul2@example.test', password: 'long enough pw', first_name: 'A', last_name: nul, user_type: 'teacher' }, admin.headers),
      send('PATCH', `/api/courses/${course.id}/`, { name: nul }, teacher.headers),
      send('PATCH', `/api/courses/${course.id}/`, { skills: ['Py\u0000thon'] }, teacher.headers),
      send('POST', '/api/classes/sessions/', { course_id: course.id, title: nul, starts_at: new Date(Date.now() + 3_600_000).toISOString(), duration_minutes: 60 }, teacher.headers),
      send('POST', '/api/payments/sandbox/pay/', { order_id: 'order_\u0000' }, student.headers),
    ];
    for (const res of await Promise.all(cases)) {
      expect(res.statusCode, res.body).toBe(400);
      expect(res.json().message).toBe('Some fields are not valid');
      expect(Object.values(res.json().errors).flat()).toContain('Remove invisible control characters');
    }
    const [me] = await t.db.select().from(users).where(eq(users.id, student.user.id));
    expect(me!.firstName).toBe('Test');
    const [unchanged] = await t.db.select().from(courses).where(eq(courses.id, course.id));
    expect(unchanged!.name).toBe(course.name);
  });

  it('refuses half of a surrogate pair, which is no character (a jsonb column cannot hold it), but keeps emoji', async () => {
    const course = await createCourse(t, teacher.headers);
    for (const skills of [['\ud800Vitest'], ['x\udfff']]) {
      const res = await send('PATCH', `/api/courses/${course.id}/`, { skills }, teacher.headers);
      expect(res.statusCode).toBe(400);
    }
    const emoji = await send('PATCH', `/api/courses/${course.id}/`, { skills: ['Python 🐍'] }, teacher.headers);
    expect(emoji.statusCode).toBe(200);
    expect(emoji.json().data.skills).toEqual(['Python 🐍']);
  });

  it('still allows line breaks in a description', async () => {
    const course = await createCourse(t, teacher.headers, { description: 'Line one.\nLine two.\tTabbed.' });
    expect(course.description).toBe('Line one.\nLine two.\tTabbed.');
  });
});

describe('ids past what the database holds', () => {
  it('are refused with 400 in paths and bodies', async () => {
    const course = await createCourse(t, teacher.headers);
    for (const url of ['/api/courses/2147483648/', '/api/courses/99999999999999999999/', '/api/courses/-1/', '/api/courses/1.5/']) {
      const res = await send('GET', url, undefined, student.headers);
      expect(res.statusCode, url).toBe(400);
      expect(res.json().errors.id).toEqual(['Not a valid id']);
    }
    // The largest id that fits is simply not found.
    expect((await send('GET', '/api/courses/2147483647/', undefined, student.headers)).statusCode).toBe(404);
    const order = await send('POST', '/api/payments/create_order/', { ...weekdayChoice(course), course_id: 2 ** 31 }, student.headers);
    expect(order.statusCode).toBe(400);
    expect(order.json().errors.course_id).toEqual(['Not a valid id']);
    const forTeacher = await send('POST', '/api/courses/', { name: 'X', teacher_id: 2 ** 31 }, admin.headers);
    expect(forTeacher.statusCode).toBe(400);
    expect(forTeacher.json().errors.teacher_id).toEqual(['Not a valid id']);
  });
});

describe('who is asking comes first', () => {
  it('answers an unauthenticated request with a bad body 401, without the field list', async () => {
    const res = await send('POST', '/api/courses/', { name: 42 });
    expect(res.statusCode).toBe(401);
    expect(res.json().errors).toBeUndefined();
  });

  it('answers a caller whose role may not use the endpoint 403, whatever the body', async () => {
    const res = await send('POST', '/api/courses/', { name: 42 }, student.headers);
    expect(res.statusCode).toBe(403);
    expect(res.json().errors).toBeUndefined();
  });
});

describe('request bodies', () => {
  it('refuses deeply nested JSON with 400 before parsing it', async () => {
    const deep = '['.repeat(100_000) + ']'.repeat(100_000);
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/auth/login/',
      headers: { 'content-type': 'application/json' },
      payload: `{"email":"a@b.co","password":${deep.slice(0, 15_000)}}`,
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe('The request body is nested too deeply');
  });

  it('still reads brackets inside strings as text', async () => {
    const res = await send('POST', '/api/auth/login/', { email: 'nobody@example.test', password: '['.repeat(100) });
    expect(res.statusCode).toBe(401);
  });

  it('refuses a body larger than any form needs with 413', async () => {
    const res = await send('POST', '/api/auth/login/', { email: 'a@b.co', password: 'x'.repeat(20 * 1024) });
    expect(res.statusCode).toBe(413);
    expect(res.json().message).toBe('The upload is larger than allowed');
  });
});

describe('the API description', () => {
  it('declares every failure status an endpoint of its shape can answer, and the rules the server applies', async () => {
    const doc = (await send('GET', '/api/docs/json')).json() as {
      paths: Record<string, Record<string, { responses: Record<string, unknown>; requestBody?: { content: Record<string, { schema: unknown }> } }>>;
    };
    const course = doc.paths['/api/courses/{id}/']!;
    expect(Object.keys(course.get!.responses).sort()).toEqual(['200', '400', '401', '403', '404', '500', '503']);
    expect(Object.keys(course.patch!.responses)).toEqual(expect.arrayContaining(['413', '415']));
    expect(Object.keys(doc.paths['/api/auth/login/']!.post!.responses)).toEqual(expect.arrayContaining(['401', '403', '429']));
    const register = JSON.stringify(doc.paths['/api/auth/register/']!.post!.requestBody!.content['application/json']!.schema);
    expect(register).toContain('(?!\\\\d+$)');
    const newCourse = JSON.stringify(doc.paths['/api/courses/']!.post!.requestBody!.content['application/json']!.schema);
    expect(newCourse).toContain('"format":"date"');
    expect(newCourse).toContain('"anyOf":[{"required":["weekday_times"]');
  });
});
