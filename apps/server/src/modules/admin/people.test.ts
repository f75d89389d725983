// Admins manage people: find them, make staff, deactivate (which stops the account at once: tokens,
// refresh, login) and reactivate; every action leaves an audit row written with it.
import { describe, expect, it } from 'vitest';
import { auditActions } from '@mooz/contract/admin';
import { messages } from '@mooz/contract/messages';
import { createUser, login, signedIn, uniqueEmail } from '../../../test/accounts';
import { auditRows, call } from '../../../test/admin';
import { oneInstance } from '../../../test/instances';

const t = oneInstance();
const bearer = (access: string) => ({ authorization: `Bearer ${access}` });
const usersPage = async (headers: Record<string, string>, query: string) => {
  const res = await call(t, 'GET', `/api/admin/users/?${query}`, headers);
  expect(res.statusCode, res.body).toBe(200);
  return res.json().data as { total: number; items: { id: number; email: string; user_type: string; status: string }[] };
};

describe('the list of users', () => {
  it('finds people by name or email, whatever the case, and filters by role and status', async () => {
    const admin = await signedIn(t, 'admin');
    const marker = `Zephyrine${Date.now()}`;
    const teacher = await createUser(t, { userType: 'teacher', firstName: marker });
    const student = await createUser(t, { firstName: marker });
    const byName = await usersPage(admin.headers, `q=${marker.toLowerCase()}`);
    expect(byName.items.map((u) => u.id).sort()).toEqual([teacher.id, student.id].sort());
    expect(byName.total).toBe(2);
    expect((await usersPage(admin.headers, `q=${encodeURIComponent(teacher.email.toUpperCase())}`)).items.map((u) => u.id)).toEqual([teacher.id]);
    expect((await usersPage(admin.headers, `q=${marker}&role=teacher`)).items.map((u) => u.id)).toEqual([teacher.id]);
    expect((await usersPage(admin.headers, `q=${marker}&status=deactivated`)).items).toEqual([]);
    const active = await usersPage(admin.headers, `q=${marker}&status=active`);
    expect(active.items.every((u) => u.status === 'active')).toBe(true);
  });

  it('takes % and _ in a search literally', async () => {
    const admin = await signedIn(t, 'admin');
    expect((await usersPage(admin.headers, 'q=%25')).total).toBe(0);
    expect((await usersPage(admin.headers, 'q=_')).total).toBe(0);
  });

  it('pages the list, with the total before paging', async () => {
    const admin = await signedIn(t, 'admin');
    const marker = `Pager${Date.now()}`;
    for (let i = 0; i < 3; i++) await createUser(t, { firstName: marker });
    const first = await usersPage(admin.headers, `q=${marker}&limit=2`);
    const second = await usersPage(admin.headers, `q=${marker}&limit=2&offset=2`);
    expect([first.total, first.items.length, second.items.length]).toEqual([3, 2, 1]);
    expect(new Set([...first.items, ...second.items].map((u) => u.id)).size).toBe(3);
  });

  it('tells unverified sign-ups apart', async () => {
    const admin = await signedIn(t, 'admin');
    const email = uniqueEmail('unverified');
    const reg = await call(t, 'POST', '/api/auth/register/', {}, { email, password: 'long enough pass', first_name: 'New', last_name: 'Comer' });
    expect(reg.statusCode).toBe(201);
    const found = await usersPage(admin.headers, `q=${encodeURIComponent(email)}&status=unverified`);
    expect(found.items).toMatchObject([{ email, status: 'unverified', user_type: 'student' }]);
  });

  it.each([['role=boss'], ['status=asleep'], ['limit=0'], ['limit=101'], ['offset=-1'], ['limit=ten'], [`q=${'x'.repeat(101)}`], ['q=a%00b']])(
    'refuses the filter %s with 400',
    async (query) => {
      const admin = await signedIn(t, 'admin');
      const res = await call(t, 'GET', `/api/admin/users/?${query}`, admin.headers);
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({ message: messages.validationFailed, errors: expect.any(Object) });
    },
  );
});

describe('making staff', () => {
  it('creates an active teacher who can log in at once, and audits it', async () => {
    const admin = await signedIn(t, 'admin');
    const email = uniqueEmail('staff');
    const res = await call(t, 'POST', '/api/admin/users/', admin.headers, { email, password: 'a good password', first_name: 'Tea', last_name: 'Cher', user_type: 'teacher' });
    expect(res.statusCode).toBe(201);
    const made = res.json().data;
    expect(made).toMatchObject({ email, user_type: 'teacher', is_trial: false });
    await login(t, email, 'a good password');
    const [row] = await auditRows(t, auditActions.createUser);
    expect(row).toMatchObject({ actorId: admin.user.id, targetType: 'user', targetId: String(made.id), details: { email, user_type: 'teacher' } });
  });

  it('writes no audit row for an email already taken', async () => {
    const admin = await signedIn(t, 'admin');
    const before = (await auditRows(t, auditActions.createUser)).length;
    const res = await call(t, 'POST', '/api/admin/users/', admin.headers, { email: admin.user.email, password: 'a good password', first_name: 'A', last_name: 'B', user_type: 'admin' });
    expect(res.statusCode).toBe(409);
    expect((await auditRows(t, auditActions.createUser)).length).toBe(before);
  });
});

describe('deactivation', () => {
  it("refuses the user's access token on the very next request, their refresh token and their login", async () => {
    const admin = await signedIn(t, 'admin');
    const victim = await signedIn(t, 'student');
    expect((await call(t, 'GET', '/api/auth/profile/', victim.headers)).statusCode).toBe(200);
    const res = await call(t, 'POST', `/api/admin/users/${victim.user.id}/deactivate/`, admin.headers);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ message: messages.userDeactivated, data: { id: victim.user.id, status: 'deactivated' } });
    expect(res.json().data.deactivated_at).toEqual(expect.any(String));

    expect((await call(t, 'GET', '/api/auth/profile/', victim.headers)).statusCode).toBe(401);
    expect((await call(t, 'POST', '/api/auth/token/refresh/', {}, { refresh: victim.refresh })).statusCode).toBe(401);
    const relogin = await call(t, 'POST', '/api/auth/login/', {}, { email: victim.user.email, password: victim.user.password });
    expect(relogin.statusCode).toBe(403);
    expect(relogin.json()).toEqual({ message: messages.accountDeactivated });
  });

  it('does not tell a wrong password that the account is deactivated', async () => {
    const admin = await signedIn(t, 'admin');
    const victim = await createUser(t);
    await call(t, 'POST', `/api/admin/users/${victim.id}/deactivate/`, admin.headers);
    const res = await call(t, 'POST', '/api/auth/login/', {}, { email: victim.email, password: 'not the password' });
    expect(res.statusCode).toBe(401);
  });

  it('is audited, and reactivation lets the user log in again, audited too', async () => {
    const admin = await signedIn(t, 'admin');
    const teacher = await createUser(t, { userType: 'teacher' });
    await call(t, 'POST', `/api/admin/users/${teacher.id}/deactivate/`, admin.headers);
    const [deactivated] = await auditRows(t, auditActions.deactivateUser);
    expect(deactivated).toMatchObject({ actorId: admin.user.id, targetType: 'user', targetId: String(teacher.id), details: { email: teacher.email } });

    const res = await call(t, 'POST', `/api/admin/users/${teacher.id}/reactivate/`, admin.headers);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ message: messages.userReactivated, data: { status: 'active', deactivated_at: null } });
    const [reactivated] = await auditRows(t, auditActions.reactivateUser);
    expect(reactivated).toMatchObject({ actorId: admin.user.id, targetId: String(teacher.id) });
    const tokens = await login(t, teacher.email, teacher.password);
    expect((await call(t, 'GET', '/api/auth/profile/', bearer(tokens.access))).statusCode).toBe(200);
  });

  it('keeps the old tokens dead after reactivation', async () => {
    const admin = await signedIn(t, 'admin');
    const victim = await signedIn(t, 'student');
    await call(t, 'POST', `/api/admin/users/${victim.user.id}/deactivate/`, admin.headers);
    await call(t, 'POST', `/api/admin/users/${victim.user.id}/reactivate/`, admin.headers);
    expect((await call(t, 'GET', '/api/auth/profile/', victim.headers)).statusCode).toBe(401);
    expect((await call(t, 'POST', '/api/auth/token/refresh/', {}, { refresh: victim.refresh })).statusCode).toBe(401);
  });

  it('refuses an admin deactivating themselves, with no change', async () => {
    const admin = await signedIn(t, 'admin');
    const res = await call(t, 'POST', `/api/admin/users/${admin.user.id}/deactivate/`, admin.headers);
    expect(res.statusCode).toBe(403);
    expect(res.json()).toEqual({ message: messages.cannotDeactivateSelf });
    expect((await call(t, 'GET', '/api/auth/profile/', admin.headers)).statusCode).toBe(200);
  });

  it('answers 409 to deactivating twice or reactivating an active account, with no audit row', async () => {
    const admin = await signedIn(t, 'admin');
    const user = await createUser(t);
    await call(t, 'POST', `/api/admin/users/${user.id}/deactivate/`, admin.headers);
    const rows = (await auditRows(t, auditActions.deactivateUser)).length;
    const twice = await call(t, 'POST', `/api/admin/users/${user.id}/deactivate/`, admin.headers);
    expect(twice.statusCode).toBe(409);
    expect(twice.json()).toEqual({ message: messages.alreadyDeactivated });
    expect((await auditRows(t, auditActions.deactivateUser)).length).toBe(rows);
    const other = await createUser(t);
    const reactivate = await call(t, 'POST', `/api/admin/users/${other.id}/reactivate/`, admin.headers);
    expect(reactivate.statusCode).toBe(409);
    expect(reactivate.json()).toEqual({ message: messages.notDeactivated });
  });

  it('answers 404 for an unknown user and 400 for an id that is no id', async () => {
    const admin = await signedIn(t, 'admin');
    for (const action of ['deactivate', 'reactivate']) {
      const unknown = await call(t, 'POST', `/api/admin/users/2147483000/${action}/`, admin.headers);
      expect(unknown.statusCode).toBe(404);
      expect(unknown.json()).toEqual({ message: messages.userNotFound });
      for (const bad of ['abc', '0', '-3', '99999999999']) {
        expect((await call(t, 'POST', `/api/admin/users/${bad}/${action}/`, admin.headers)).statusCode, bad).toBe(400);
      }
    }
  });
});
