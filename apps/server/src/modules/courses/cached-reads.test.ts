// The catalogue and the sessions list read from memory (courses/service.ts, sessions/service.ts): each
// follows a change at once in the instance that made it, and in another instance as soon as the
// change bus carries it there (here Redis pub/sub; PostgreSQL's LISTEN/NOTIFY is the other carrier).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import type { TestApp } from '../../../test/app';
import { signedIn } from '../../../test/accounts';
import { createCourse, createOrder, paidCheckout, weekdayChoice } from '../../../test/courses';
import { eventually, oneInstance, sharedInstances } from '../../../test/instances';
import { throwawayRedis, type ThrowawayRedis } from '../../../test/throwaway-redis';
import { courses } from '../../db/schema/index';
import { buildAbility, rulesFor } from '@mooz/contract/permissions';
import { endpoints } from '@mooz/contract/endpoints';
import { limits } from '@mooz/contract/limits';
import { zodSerializer } from '../../http/serializer';
import { createSessionsService } from '../sessions/service';
import { createCoursesService } from './service';

// Long enough that only a change, never an expiry, can explain what the tests see.
const LONG_TTL_MS = 120_000;

type Listed = { id: number; name: string; teacher: { name: string }; enrolled: boolean };
const catalogue = async (t: TestApp, headers: Record<string, string>) =>
  (await t.app.inject({ url: '/api/courses/', headers })).json().data as Listed[];
const sessionTitles = async (t: TestApp, headers: Record<string, string>) =>
  ((await t.app.inject({ url: '/api/classes/sessions/', headers })).json().data as { title: string }[]).map((s) => s.title);

describe('in one instance', () => {
  const t = oneInstance({ cacheTtlMs: LONG_TTL_MS });

  it("follows a course's edit, its unpublishing and its teacher's new name at once", async () => {
    const teacher = await signedIn(t, 'teacher');
    const student = await signedIn(t);
    const course = await createCourse(t, teacher.headers, { name: 'Before' });
    expect((await catalogue(t, student.headers)).map((c) => c.name)).toContain('Before');

    await t.app.inject({ method: 'PATCH', url: `/api/courses/${course.id}/`, headers: teacher.headers, payload: { name: 'After' } });
    expect((await catalogue(t, student.headers)).find((c) => c.id === course.id)?.name).toBe('After');

    await t.app.inject({ method: 'PATCH', url: '/api/auth/profile/', headers: teacher.headers, payload: { first_name: 'Renamed' } });
    expect((await catalogue(t, student.headers)).find((c) => c.id === course.id)?.teacher.name).toBe('Renamed Person');

    await t.db.update(courses).set({ published: false }).where(eq(courses.id, course.id));
    expect((await catalogue(t, student.headers)).find((c) => c.id === course.id)).toBeUndefined();
  });

  it("presents the catalogue once for everyone, each caller's purchases apart, and anew when the clock passes a batch's first start", async () => {
    const teacher = await signedIn(t, 'teacher');
    const course = await createCourse(t, teacher.headers, { name: `Clocked ${Date.now()}` });
    const buyer = await signedIn(t);
    const order = await createOrder(t, buyer.headers, weekdayChoice(course));
    await t.app.inject({ method: 'POST', url: '/api/payments/verify_payment/', headers: buyer.headers, payload: { ...paidCheckout(t, order), subscription_id: order.subscription_id } });
    const viewer = await signedIn(t);
    // The same answer as the route's, on a clock of the test's own.
    let clock = new Date();
    const service = createCoursesService({ db: t.db, changes: t.app.changes, cacheTtlMs: LONG_TTL_MS, now: () => clock });
    const as = (id: number) => ({ id, userType: 'student' as const, ability: buildAbility(rulesFor('student', id)) });
    const listed = async (id: number) => (await service.catalogue(as(id))).data.find((c) => c.id === course.id)!;

    expect((await service.catalogue(as(viewer.user.id))).data).toEqual(await catalogue(t, viewer.headers));
    expect((await service.catalogue(as(buyer.user.id))).data).toEqual(await catalogue(t, buyer.headers));
    expect((await listed(buyer.user.id)).enrolled).toBe(true);
    expect((await listed(viewer.user.id)).enrolled).toBe(false);
    const first = [...(await listed(viewer.user.id)).batches].sort((a, b) => a.meetings[0]!.first_starts_at.localeCompare(b.meetings[0]!.first_starts_at))[0]!;
    expect((await listed(viewer.user.id)).batches.every((b) => !b.started)).toBe(true);

    clock = new Date(Date.parse(first.meetings[0]!.first_starts_at));
    const started = (await listed(viewer.user.id)).batches.filter((b) => b.started).map((b) => b.id);
    expect(started).toContain(first.id);
    expect((await listed(buyer.user.id)).batches.filter((b) => b.started).map((b) => b.id)).toEqual(started);
    expect((await listed(buyer.user.id)).enrolled).toBe(true);

    clock = new Date(Date.parse(first.meetings[0]!.first_starts_at) - 1);
    expect((await listed(viewer.user.id)).batches.some((b) => b.id === first.id && b.started)).toBe(false);
  });

  it('keeps the catalogue and a sessions list as presented across reloads that find the same rows, and not past a change', async () => {
    const teacher = await signedIn(t, 'teacher');
    const course = await createCourse(t, teacher.headers, { name: `Reloaded ${Date.now()}` });
    const payload = { course_id: course.id, title: `Reloaded class ${Date.now()}`, starts_at: new Date(Date.now() + 86_400_000).toISOString(), duration_minutes: 60 };
    expect((await t.app.inject({ method: 'POST', url: '/api/classes/sessions/', headers: teacher.headers, payload })).statusCode).toBe(201);
    // A lifetime of 1 ms: every call below reads the rows again.
    const courses = createCoursesService({ db: t.db, changes: t.app.changes, cacheTtlMs: 1 });
    const sessions = createSessionsService({ db: t.db, courses, account: async () => null, changes: t.app.changes, cacheTtlMs: 1 });
    const caller = { id: teacher.user.id, userType: 'teacher' as const, ability: buildAbility(rulesFor('teacher', teacher.user.id)) };
    const expire = () => new Promise((resolve) => setTimeout(resolve, 5));
    const catalogue = await courses.catalogue(caller);
    const list = await sessions.list(caller);
    await expire();
    // The very same answers, so route() sends the bytes it serialised before (http/shared-answer.ts).
    expect(await courses.catalogue(caller)).toBe(catalogue);
    expect(await sessions.list(caller)).toBe(list);

    await t.app.inject({ method: 'PATCH', url: `/api/courses/${course.id}/`, headers: teacher.headers, payload: { name: 'Renamed on reload' } });
    const renamed = await courses.catalogue(caller);
    expect(renamed).not.toBe(catalogue);
    expect(renamed.data.find((c) => c.id === course.id)?.name).toBe('Renamed on reload');
    expect((await sessions.list(caller)).data.find((s) => s.title === payload.title)?.course_name).toBe('Renamed on reload');
  });

  it('sends a shared answer as the bytes the route would have written, with the same content type', async () => {
    const student = await signedIn(t);
    const res = await t.app.inject({ url: '/api/courses/', headers: student.headers });
    const again = await t.app.inject({ url: '/api/courses/', headers: student.headers });
    const own = createCoursesService({ db: t.db, changes: t.app.changes, cacheTtlMs: LONG_TTL_MS });
    const answer = await own.catalogue({ id: student.user.id, userType: 'student', ability: buildAbility(rulesFor('student', student.user.id)) });
    expect(res.body).toBe(zodSerializer(endpoints.courses.catalogue.response)(answer));
    expect(again.body).toBe(res.body);
    expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(res.headers['content-length']).toBe(String(Buffer.byteLength(res.body)));
    const mine = await t.app.inject({ url: '/api/courses/my_courses/', headers: student.headers });
    expect(mine.headers['content-type']).toBe(res.headers['content-type']);
  });

  it("follows the clock in a kept sessions list: can_join from the early opening, live at the start, ended at the end, and back", async () => {
    const teacher = await signedIn(t, 'teacher');
    const course = await createCourse(t, teacher.headers, { name: `Timed ${Date.now()}` });
    const startsAt = new Date(Date.now() + 3 * 3_600_000);
    const payload = { course_id: course.id, title: `Timed class ${Date.now()}`, starts_at: startsAt.toISOString(), duration_minutes: 60 };
    expect((await t.app.inject({ method: 'POST', url: '/api/classes/sessions/', headers: teacher.headers, payload })).statusCode).toBe(201);
    let clock = new Date();
    const courses = createCoursesService({ db: t.db, changes: t.app.changes, cacheTtlMs: LONG_TTL_MS, now: () => clock });
    const sessions = createSessionsService({ db: t.db, courses, account: async () => null, changes: t.app.changes, cacheTtlMs: LONG_TTL_MS, now: () => clock });
    const caller = { id: teacher.user.id, userType: 'teacher' as const, ability: buildAbility(rulesFor('teacher', teacher.user.id)) };
    const state = async () => {
      const session = (await sessions.list(caller)).data.find((s) => s.title === payload.title)!;
      return `${session.status} ${session.can_join}`;
    };
    const early = startsAt.getTime() - limits.sessionJoinEarlyMinutes * 60_000;
    const at = (ms: number) => (clock = new Date(ms));

    expect(await state()).toBe('scheduled false');
    at(early - 1);
    expect(await state()).toBe('scheduled false');
    at(early);
    expect(await state()).toBe('scheduled true');
    at(startsAt.getTime());
    expect(await state()).toBe('live true');
    at(startsAt.getTime() + 3_600_000);
    expect(await state()).toBe('ended false');
    at(early - 1);
    expect(await state()).toBe('scheduled false');
    at(Date.now());
    expect((await sessions.list(caller)).data).toEqual((await t.app.inject({ url: '/api/classes/sessions/', headers: teacher.headers })).json().data);
  });
});

describe('two instances sharing the database and Redis', () => {
  let redis: ThrowawayRedis;
  let close: () => Promise<void>;
  let a: TestApp;
  let b: TestApp;
  beforeAll(async () => {
    redis = await throwawayRedis();
    const shared = await sharedInstances(2, { env: { REDIS_URL: redis.url }, cacheTtlMs: LONG_TTL_MS });
    [a, b] = shared.instances as [TestApp, TestApp];
    close = shared.close;
  });
  afterAll(async () => {
    await close?.();
    await redis?.stop();
  });

  it('shows a purchase made through one instance in the other’s catalogue and sessions list', async () => {
    const teacher = await signedIn(a, 'teacher');
    const course = await createCourse(a, teacher.headers, { name: `Bought ${Date.now()}` });
    const session = { course_id: course.id, title: 'Carried class', starts_at: new Date(Date.now() + 86_400_000).toISOString(), duration_minutes: 60 };
    const student = await signedIn(b);
    expect((await catalogue(b, student.headers)).find((c) => c.id === course.id)?.enrolled).toBe(false);
    expect(await sessionTitles(b, student.headers)).not.toContain('Carried class');

    expect((await a.app.inject({ method: 'POST', url: '/api/classes/sessions/', headers: teacher.headers, payload: session })).statusCode).toBe(201);
    await eventually(async () => (await sessionTitles(b, student.headers)).includes('Carried class'));

    const order = await createOrder(a, student.headers, weekdayChoice(course));
    await a.app.inject({ method: 'POST', url: '/api/payments/verify_payment/', headers: student.headers, payload: { ...paidCheckout(a, order), subscription_id: order.subscription_id } });
    await eventually(async () => (await catalogue(b, student.headers)).find((c) => c.id === course.id)?.enrolled === true);
  });

  it("drops a session cancelled through one instance from the other's sessions list", async () => {
    const teacher = await signedIn(a, 'teacher');
    const course = await createCourse(a, teacher.headers, { name: `Cancelled ${Date.now()}` });
    const title = `Called off ${Date.now()}`;
    const session = { course_id: course.id, title, starts_at: new Date(Date.now() + 86_400_000).toISOString(), duration_minutes: 60 };
    const scheduled = await a.app.inject({ method: 'POST', url: '/api/classes/sessions/', headers: teacher.headers, payload: session });
    const student = await signedIn(b);
    await eventually(async () => (await sessionTitles(b, student.headers)).includes(title));
    const cancelled = await a.app.inject({ method: 'POST', url: `/api/classes/sessions/${scheduled.json().data.id}/cancel/`, headers: teacher.headers, payload: { reason: 'Snow' } });
    expect(cancelled.statusCode).toBe(200);
    await eventually(async () => !(await sessionTitles(b, student.headers)).includes(title));
  });
});
