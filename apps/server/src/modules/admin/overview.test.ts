// The admin overview (users by role, this month's revenue per currency, active batches), the list of
// every teacher's courses, and the audit log, newest first.
import { describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { auditActions } from '@mooz/contract/admin';
import { createUser, signedIn } from '../../../test/accounts';
import { call, paidEnrollment } from '../../../test/admin';
import { createCourse, daysFromNow } from '../../../test/courses';
import { oneInstance } from '../../../test/instances';
import { batches, courses, subscriptions } from '../../db/schema/index';
import { recordAudit } from './audit';

// Its own database: the overview counts everything in it.
const t = oneInstance();
const get = async (headers: Record<string, string>, url: string) => {
  const res = await call(t, 'GET', url, headers);
  expect(res.statusCode, res.body).toBe(200);
  return res.json().data;
};

describe('the overview', () => {
  it("counts users by role, this month's revenue per currency and the batches running today", async () => {
    const admin = await signedIn(t, 'admin');
    const before = await get(admin.headers, '/api/admin/overview/');
    const { course, order } = await paidEnrollment(t);
    const deactivated = await createUser(t);
    await call(t, 'POST', `/api/admin/users/${deactivated.id}/deactivate/`, admin.headers);
    // A payment of last month does not count, nor one refunded.
    const lastMonth = await paidEnrollment(t);
    await t.db.update(subscriptions).set({ activatedAt: new Date(Date.now() - 40 * 86_400_000) }).where(eq(subscriptions.id, lastMonth.order.subscription_id));
    const running = await t.db
      .insert(batches)
      .values([
        { courseId: course.id, kind: 'weekdays', startDate: daysFromNow(-3), endDate: daysFromNow(20), time: '09:00', seats: 5, seatsTaken: 2 },
        { courseId: course.id, kind: 'weekdays', startDate: daysFromNow(-3), endDate: daysFromNow(20), time: '18:30', seats: 5, seatsTaken: 0 },
        { courseId: course.id, kind: 'weekends', startDate: daysFromNow(5), endDate: daysFromNow(30), saturdayTime: '10:00', sundayTime: '15:00', seats: 5, seatsTaken: 1 },
      ])
      .returning();

    const now = await get(admin.headers, '/api/admin/overview/');
    expect(now.users.student - before.users.student).toBe(3);
    expect(now.users.teacher - before.users.teacher).toBe(2);
    expect(now.users.deactivated - before.users.deactivated).toBe(1);
    expect(now.month).toBe(new Date().toISOString().slice(0, 7));
    const inr = (o: typeof now) => o.revenue_this_month.find((r: { currency: string }) => r.currency === 'INR') ?? { amount: 0, payments: 0 };
    // Unless this month began since the "last month" payment was made (it never does: 40 days ago).
    expect(inr(now).amount - inr(before).amount).toBe(course.price);
    expect(inr(now).payments - inr(before).payments).toBe(1);
    expect(now.active_batches).toContainEqual(expect.objectContaining({ id: running[0]!.id, seats_taken: 2, capacity: 5, course: { id: course.id, name: course.name } }));
    const ids = now.active_batches.map((b: { id: number }) => b.id);
    expect(ids).not.toContain(running[1]!.id);
    expect(ids).not.toContain(running[2]!.id);
    expect(now.counts.active_subscriptions - before.counts.active_subscriptions).toBe(2);
    expect(order.subscription_id).toBeTruthy();
  });
});

describe('the courses of every teacher', () => {
  it('lists them with their teacher, state, paying students and batches, filtered by state and text', async () => {
    const admin = await signedIn(t, 'admin');
    const { course, teacher } = await paidEnrollment(t);
    await t.db.insert(batches).values({ courseId: course.id, kind: 'weekdays', startDate: daysFromNow(1), endDate: daysFromNow(28), time: '09:00', seats: 5 });
    const hidden = await createCourse(t, teacher.headers, { name: `Hidden ${Date.now()}`, published: false });
    const archived = await createCourse(t, teacher.headers, { name: `Archived ${Date.now()}` });
    await t.db.update(courses).set({ archivedAt: new Date() }).where(eq(courses.id, archived.id));

    const mine = await get(admin.headers, `/api/admin/courses/?q=${encodeURIComponent(teacher.user.email)}`);
    expect(mine.total).toBe(3);
    expect(mine.items.find((c: { id: number }) => c.id === course.id)).toMatchObject({
      name: course.name,
      teacher: { id: teacher.user.id, email: teacher.user.email },
      published: true,
      archived_at: null,
      students: 1,
      batches: expect.any(Number),
    });
    expect(mine.items.find((c: { id: number }) => c.id === course.id).batches).toBeGreaterThanOrEqual(1);
    const only = async (state: string) =>
      (await get(admin.headers, `/api/admin/courses/?state=${state}&q=${encodeURIComponent(teacher.user.email)}`)).items.map((c: { id: number }) => c.id);
    expect(await only('published')).toEqual([course.id]);
    expect(await only('unpublished')).toEqual([hidden.id]);
    expect(await only('archived')).toEqual([archived.id]);
  });

  it('refuses an unknown state with 400', async () => {
    const admin = await signedIn(t, 'admin');
    expect((await call(t, 'GET', '/api/admin/courses/?state=deleted', admin.headers)).statusCode).toBe(400);
  });
});

describe('the audit log', () => {
  it('lists every admin action newest first with its actor, paged and filtered by action', async () => {
    const admin = await signedIn(t, 'admin');
    const [one, two] = [await createUser(t), await createUser(t)];
    await call(t, 'POST', `/api/admin/users/${one.id}/deactivate/`, admin.headers);
    await call(t, 'POST', `/api/admin/users/${two.id}/deactivate/`, admin.headers);
    await call(t, 'POST', `/api/admin/users/${one.id}/reactivate/`, admin.headers);

    const page = await get(admin.headers, '/api/admin/audit/?limit=3');
    expect(page.items.map((e: { action: string; target_id: string }) => [e.action, e.target_id])).toEqual([
      [auditActions.reactivateUser, String(one.id)],
      [auditActions.deactivateUser, String(two.id)],
      [auditActions.deactivateUser, String(one.id)],
    ]);
    expect(page.items[0]).toMatchObject({ actor: { id: admin.user.id, email: admin.user.email }, target_type: 'user', details: { email: one.email }, created_at: expect.any(String) });
    expect(page.total).toBeGreaterThanOrEqual(3);
    const next = await get(admin.headers, '/api/admin/audit/?limit=1&offset=1');
    expect(next.items[0].target_id).toBe(String(two.id));
    const reactivations = await get(admin.headers, `/api/admin/audit/?action=${auditActions.reactivateUser}`);
    expect(reactivations.items.every((e: { action: string }) => e.action === auditActions.reactivateUser)).toBe(true);
  });

  it("keeps other modules' actions written with recordAudit", async () => {
    const admin = await signedIn(t, 'admin');
    await t.db.transaction((tx) => recordAudit(tx, admin.user.id, 'course.archive', { type: 'course', id: 7 }, { reason: 'bought' }));
    const page = await get(admin.headers, '/api/admin/audit/?action=course.archive');
    expect(page.items[0]).toMatchObject({ action: 'course.archive', target_type: 'course', target_id: '7', details: { reason: 'bought' } });
  });

  it('refuses a bad page with 400', async () => {
    const admin = await signedIn(t, 'admin');
    expect((await call(t, 'GET', '/api/admin/audit/?limit=-1', admin.headers)).statusCode).toBe(400);
    expect((await call(t, 'GET', `/api/admin/audit/?action=${'a'.repeat(65)}`, admin.headers)).statusCode).toBe(400);
  });
});
