// The class whiteboard's saved pages over real HTTP and a real database: the teacher saves a page as
// PNG, the session's students list and open it; a student cannot save, anything not a PNG is refused,
// and a room without a session has no boards.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { messages } from '@mooz/contract/messages';
import { buildTestApp, type TestApp } from '../../../test/app';
import { classSession, person } from '../../../test/realtime-clients';

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(() => t.close());

// A 1×1 white PNG.
const png = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAIAAACQd1PeAAAADElEQVR4nGP4//8/AAX+Av4N70a4AAAAAElFTkSuQmCC';
const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

describe('saved whiteboard pages', () => {
  it('are saved by the teacher and opened by the session\'s students', async () => {
    const teacher = await person(t, 'teacher');
    const student = await person(t);
    const { roomId } = await classSession(t, teacher.userId);
    const saved = await t.app.inject({ method: 'POST', url: `/api/classes/rooms/${roomId}/whiteboard/0/`, headers: bearer(teacher.token), payload: { png } });
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.json().data).toMatchObject({ page: 0 });

    const list = await t.app.inject({ method: 'GET', url: `/api/classes/rooms/${roomId}/whiteboard/`, headers: bearer(student.token) });
    expect(list.statusCode, list.body).toBe(200);
    expect(list.json().data.map((p: { page: number }) => p.page)).toEqual([0]);

    const image = await t.app.inject({ method: 'GET', url: `/api/classes/rooms/${roomId}/whiteboard/0/`, headers: bearer(student.token) });
    expect(image.statusCode).toBe(200);
    expect(image.headers['content-type']).toBe('image/png');
    expect(image.headers['content-disposition']).toContain('attachment');
    expect(image.rawPayload.equals(Buffer.from(png, 'base64'))).toBe(true);
  });

  it('refuses a student\'s save, a page the board does not have, and what is not a PNG; nothing is kept', async () => {
    const teacher = await person(t, 'teacher');
    const student = await person(t);
    const { roomId } = await classSession(t, teacher.userId);
    const save = (token: string, page: number | string, body: unknown) =>
      t.app.inject({ method: 'POST', url: `/api/classes/rooms/${roomId}/whiteboard/${page}/`, headers: bearer(token), payload: body as object });
    expect((await save(student.token, 0, { png })).statusCode).toBe(403);
    const otherTeacher = await person(t, 'teacher');
    expect((await save(otherTeacher.token, 0, { png })).statusCode).toBe(403);
    expect((await save(teacher.token, 5, { png })).statusCode).toBe(404);
    expect((await save(teacher.token, 99, { png })).statusCode).toBe(400);
    const notPng = await save(teacher.token, 0, { png: Buffer.from('GIF89a not a png').toString('base64') });
    expect(notPng.statusCode).toBe(400);
    expect(notPng.json().message).toBe(messages.validationFailed);
    expect((await save(teacher.token, 0, { png: 'not base64!' })).statusCode).toBe(400);
    expect((await save(teacher.token, 0, {})).statusCode).toBe(400);
    const list = await t.app.inject({ method: 'GET', url: `/api/classes/rooms/${roomId}/whiteboard/`, headers: bearer(teacher.token) });
    expect(list.json().data).toEqual([]);
    const missing = await t.app.inject({ method: 'GET', url: `/api/classes/rooms/${roomId}/whiteboard/0/`, headers: bearer(teacher.token) });
    expect(missing.statusCode).toBe(404);
  });

  it('has none for a room that is no class session\'s, nor for someone signed out', async () => {
    const teacher = await person(t, 'teacher');
    const roomId = randomUUID();
    const list = await t.app.inject({ method: 'GET', url: `/api/classes/rooms/${roomId}/whiteboard/`, headers: bearer(teacher.token) });
    expect(list.statusCode).toBe(404);
    const saved = await t.app.inject({ method: 'POST', url: `/api/classes/rooms/${roomId}/whiteboard/0/`, headers: bearer(teacher.token), payload: { png } });
    expect(saved.statusCode).toBe(404);
    const anonymous = await t.app.inject({ method: 'GET', url: `/api/classes/rooms/${roomId}/whiteboard/` });
    expect(anonymous.statusCode).toBe(401);
  });
});
