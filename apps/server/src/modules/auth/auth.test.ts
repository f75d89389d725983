import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { buildTestApp, type TestApp } from '../../../test/app';
import { createUser, latestCode, login, outbox, signedIn, uniqueEmail } from '../../../test/accounts';
import { otpCodes, outboxJobs, users } from '../../db/schema/index';
import { signAccessToken } from '../../infrastructure/tokens';

let t: TestApp;
beforeEach(async () => {
  t = await buildTestApp();
});
afterEach(async () => {
  await t.close();
});

const post = (url: string, payload: unknown, headers: Record<string, string> = {}) =>
  t.app.inject({ method: 'POST', url, payload: payload as object, headers });

async function register(email = uniqueEmail(), password = 'a-good-password') {
  const res = await post('/api/auth/register/', { email, password, first_name: 'Nia', last_name: 'Okafor' });
  return { res, email, password };
}

describe('sign-up and one-time codes', () => {
  it('creates an inactive student, mails a 6-digit code, and activates on the right code', async () => {
    const { res, email, password } = await register();
    expect(res.statusCode).toBe(201);
    expect(res.json().data).toMatchObject({ email, user_type: 'student', is_trial: true, has_purchased: false });
    const mail = (await outbox(t)).at(-1)!;
    expect(mail.to).toBe(email);
    expect(mail.html).toContain(await latestCode(t, email));

    const before = await post('/api/auth/login/', { email, password });
    expect(before.statusCode).toBe(403);
    expect(before.json().message).toBe('Email not verified');

    const verified = await post('/api/auth/verify-otp/', { email, otp: await latestCode(t, email) });
    expect(verified.statusCode).toBe(200);
    expect((await post('/api/auth/login/', { email, password })).statusCode).toBe(200);
  });

  it('signs the user in on verification: the answer carries what login returns, and its tokens work', async () => {
    const { email, password } = await register();
    const verified = await post('/api/auth/verify-otp/', { email, otp: await latestCode(t, email) });
    expect(verified.statusCode).toBe(200);
    const session = verified.json();
    expect(session.message).toBe('Email verified. Welcome to Mooz!');
    const login = (await post('/api/auth/login/', { email, password })).json().data;
    expect(Object.keys(session.data).sort()).toEqual(Object.keys(login).sort());
    expect(session.data).toMatchObject({ user_type: 'student', is_trial: true, has_purchased: false, user: { email, user_type: 'student' } });
    const profile = await t.app.inject({ method: 'GET', url: '/api/auth/profile/', headers: { authorization: `Bearer ${session.data.access}` } });
    expect(profile.json().data.email).toBe(email);
    expect((await post('/api/auth/token/refresh/', { refresh: session.data.refresh })).statusCode).toBe(200);
    // A reset code checked on its own signs nobody in.
    await t.app.rateLimiter.reset('mailPerEmail', email);
    await post('/api/auth/forgot-password/', { email });
    const reset = await post('/api/auth/verify-otp/', { email, otp: await latestCode(t, email), purpose: 'reset' });
    expect([reset.statusCode, reset.json().data]).toEqual([200, null]);
  });

  it('mails in the language the browser asks for', async () => {
    await post('/api/auth/register/', { email: uniqueEmail(), password: 'a-good-password', first_name: 'Ana', last_name: 'Silva' }, {
      'accept-language': 'pt-BR,pt;q=0.9',
    });
    expect((await outbox(t)).at(-1)!.subject).toContain('código');
  });

  it('refuses a duplicate email whatever its case, with 409', async () => {
    const { email } = await register();
    const again = await register(email.toUpperCase());
    expect(again.res.statusCode).toBe(409);
    expect(again.res.json().errors.email).toBeDefined();
  });

  it('answers invalid bodies with 400 and per-field errors, and creates nothing', async () => {
    const res = await post('/api/auth/register/', { email: 'not-an-email', password: '12345678', first_name: 42 });
    expect(res.statusCode).toBe(400);
    expect(Object.keys(res.json().errors).sort()).toEqual(['email', 'first_name', 'last_name', 'password']);
    const short = await post('/api/auth/register/', { email: uniqueEmail(), password: 'short', first_name: 'A', last_name: 'B' });
    expect(short.json().errors.password).toBeDefined();
    expect(await t.db.select().from(users)).toHaveLength(0);
  });

  it('refuses an expired code', async () => {
    const { email } = await register();
    await t.db.update(otpCodes).set({ expiresAt: new Date(Date.now() - 1000) });
    const res = await post('/api/auth/verify-otp/', { email, otp: await latestCode(t, email) });
    expect(res.statusCode).toBe(400);
    expect(res.json().errors.otp).toBeDefined();
  });

  it('burns a code after 5 wrong tries, so even the right one then fails', async () => {
    const { email } = await register();
    const code = await latestCode(t, email);
    const wrong = code === '000000' ? '111111' : '000000';
    for (let i = 0; i < 4; i++) {
      expect((await post('/api/auth/verify-otp/', { email, otp: wrong })).json().message).toBe('The code is wrong or has expired');
    }
    const fifth = await post('/api/auth/verify-otp/', { email, otp: wrong });
    expect(fifth.json().message).toBe('Too many wrong attempts. Request a new code.');
    // Later tries, the right code included, keep saying it is burned: asking again is what helps.
    for (const otp of [code, wrong]) {
      const late = await post('/api/auth/verify-otp/', { email, otp });
      expect(late.statusCode).toBe(400);
      expect(late.json()).toEqual({
        message: 'Too many wrong attempts. Request a new code.',
        errors: { otp: ['Too many wrong attempts. Request a new code.'] },
      });
    }
    // A new code works.
    await t.app.rateLimiter.reset('mailPerEmail', email);
    expect((await post('/api/auth/send-otp/', { email, purpose: 'verify' })).statusCode).toBe(200);
    expect((await post('/api/auth/verify-otp/', { email, otp: await latestCode(t, email) })).statusCode).toBe(200);
  });

  it('refuses a resend within a minute with 429 and Retry-After, and a resend replaces the old code', async () => {
    const { email } = await register();
    const soon = await post('/api/auth/send-otp/', { email, purpose: 'verify' });
    expect(soon.statusCode).toBe(429);
    expect(Number(soon.headers['retry-after'])).toBeGreaterThan(0);

    await t.app.rateLimiter.reset('mailPerEmail', email);
    const first = await latestCode(t, email);
    expect((await post('/api/auth/send-otp/', { email, purpose: 'verify' })).statusCode).toBe(200);
    const second = await latestCode(t, email);
    if (first !== second) {
      expect((await post('/api/auth/verify-otp/', { email, otp: first })).statusCode).toBe(400);
    }
    expect((await post('/api/auth/verify-otp/', { email, otp: second })).statusCode).toBe(200);
  });

  it('answers send-otp the same whether or not the email exists', async () => {
    const known = await createUser(t);
    const a = await post('/api/auth/send-otp/', { email: known.email, purpose: 'reset' });
    const b = await post('/api/auth/send-otp/', { email: uniqueEmail('nobody'), purpose: 'reset' });
    expect(a.statusCode).toBe(200);
    expect(b.statusCode).toBe(200);
    expect(a.json()).toEqual(b.json());
    expect(await outbox(t)).toHaveLength(1);
  });

  it('does the same work in the request for a known and an unknown email, and decides after answering', async () => {
    const known = await createUser(t);
    const unknown = uniqueEmail('nobody');
    await post('/api/auth/forgot-password/', { email: known.email });
    await post('/api/auth/forgot-password/', { email: unknown });
    // Each request wrote one job and nothing else; the outbox then issued a code to the real account only.
    const jobs = await t.db.select().from(outboxJobs).where(eq(outboxJobs.kind, 'code')).orderBy(outboxJobs.id);
    expect(jobs.map((job) => job.payload)).toEqual([
      { email: known.email, purpose: 'reset' },
      { email: unknown, purpose: 'reset' },
    ]);
    expect((await outbox(t)).map((mail) => mail.to)).toEqual([known.email]);
    expect((await t.db.select().from(outboxJobs)).every((job) => job.doneAt !== null)).toBe(true);
  });

  it('writes a new account, its code and the code mail in one transaction', async () => {
    const { email } = await register();
    const [user] = await t.db.select().from(users).where(eq(users.email, email));
    const codes = await t.db.select().from(otpCodes).where(eq(otpCodes.userId, user!.id));
    const mails = await t.db.select().from(outboxJobs).where(eq(outboxJobs.kind, 'mail'));
    expect(codes).toHaveLength(1);
    expect(mails.map((job) => (job.payload as { to: string }).to)).toEqual([email]);
  });
});

describe('login and tokens', () => {
  it('returns tokens, trial fields and the user with its ability', async () => {
    const user = await createUser(t);
    const res = await post('/api/auth/login/', { email: user.email, password: user.password });
    expect(res.statusCode).toBe(200);
    const data = res.json().data;
    expect(data).toMatchObject({ user_type: 'student', is_trial: true, has_purchased: false });
    expect(data.trial_remaining_seconds).toBeGreaterThan(6 * 86_400);
    expect(data.access).toBeTruthy();
    expect(data.refresh).toBeTruthy();
    expect(data.user.ability).toContainEqual({ action: 'read', subject: 'StudentDashboard' });
  });

  it('refuses a wrong password with 401', async () => {
    const user = await createUser(t);
    const res = await post('/api/auth/login/', { email: user.email, password: 'wrong-password' });
    expect(res.statusCode).toBe(401);
    expect(res.json().message).toBe('Invalid email or password');
    expect((await post('/api/auth/login/', { email: uniqueEmail(), password: 'whatever1' })).statusCode).toBe(401);
  });

  it('rotates the refresh token, and a reused one revokes its whole family', async () => {
    const user = await createUser(t);
    const first = await login(t, user.email, user.password);
    const rotated = await post('/api/auth/token/refresh/', { refresh: first.refresh });
    expect(rotated.statusCode).toBe(200);
    const next = rotated.json().data;
    expect(next.refresh).not.toBe(first.refresh);

    const replay = await post('/api/auth/token/refresh/', { refresh: first.refresh });
    expect(replay.statusCode).toBe(401);
    // The thief's replay also kills the token the real user holds, and its access token.
    expect((await post('/api/auth/token/refresh/', { refresh: next.refresh })).statusCode).toBe(401);
    const profile = await t.app.inject({ url: '/api/auth/profile/', headers: { authorization: `Bearer ${next.access}` } });
    expect(profile.statusCode).toBe(401);
  });

  it('refuses a forged or garbage refresh token', async () => {
    expect((await post('/api/auth/token/refresh/', { refresh: 'garbage' })).statusCode).toBe(401);
    expect((await post('/api/auth/token/refresh/', {})).statusCode).toBe(400);
  });

  it('revokes the session on logout', async () => {
    const me = await signedIn(t);
    expect((await post('/api/auth/logout/', { refresh: me.refresh })).statusCode).toBe(200);
    expect((await post('/api/auth/token/refresh/', { refresh: me.refresh })).statusCode).toBe(401);
    expect((await t.app.inject({ url: '/api/auth/profile/', headers: me.headers })).statusCode).toBe(401);
  });

  it('refuses missing, expired and malformed access tokens with 401', async () => {
    const missing = await t.app.inject({ url: '/api/auth/profile/' });
    expect(missing.statusCode).toBe(401);
    expect(missing.json().message).toBe('No access token found');
    const me = await signedIn(t);
    const expired = await signAccessToken(t.app.jwtSecret, { userId: me.user.id, userType: 'student', familyId: crypto.randomUUID() }, -10);
    expect((await t.app.inject({ url: '/api/auth/profile/', headers: { authorization: `Bearer ${expired}` } })).statusCode).toBe(401);
    expect((await t.app.inject({ url: '/api/auth/profile/', headers: { authorization: 'Bearer nope' } })).statusCode).toBe(401);
  });
});

describe('passwords', () => {
  it('changes the password and revokes the other sessions but not this one', async () => {
    const user = await createUser(t);
    const here = await login(t, user.email, user.password);
    const elsewhere = await login(t, user.email, user.password);
    const res = await post(
      '/api/auth/change-password/',
      { old_password: user.password, new_password: 'a-brand-new-secret' },
      { authorization: `Bearer ${here.access}` },
    );
    expect(res.statusCode).toBe(200);
    expect((await post('/api/auth/token/refresh/', { refresh: elsewhere.refresh })).statusCode).toBe(401);
    expect((await post('/api/auth/token/refresh/', { refresh: here.refresh })).statusCode).toBe(200);
    expect((await post('/api/auth/login/', { email: user.email, password: 'a-brand-new-secret' })).statusCode).toBe(200);
  });

  it('refuses a wrong current password with a field error and changes nothing', async () => {
    const me = await signedIn(t);
    const res = await post('/api/auth/change-password/', { old_password: 'not-it', new_password: 'a-brand-new-secret' }, me.headers);
    expect(res.statusCode).toBe(400);
    expect(res.json().errors.old_password).toBeDefined();
    expect((await post('/api/auth/login/', { email: me.user.email, password: me.user.password })).statusCode).toBe(200);
  });

  it('refuses the current password as the new one with a field error and changes nothing', async () => {
    const user = await createUser(t);
    const here = await login(t, user.email, user.password);
    const elsewhere = await login(t, user.email, user.password);
    const res = await post(
      '/api/auth/change-password/',
      { old_password: user.password, new_password: user.password },
      { authorization: `Bearer ${here.access}` },
    );
    expect(res.statusCode).toBe(400);
    expect(res.json().errors).toEqual({ new_password: ['Choose a password different from the current one'] });
    // No session was signed out, and the password still works.
    expect((await post('/api/auth/token/refresh/', { refresh: elsewhere.refresh })).statusCode).toBe(200);
    expect((await post('/api/auth/login/', { email: user.email, password: user.password })).statusCode).toBe(200);
  });

  it('resets a forgotten password with a mailed code and revokes every session', async () => {
    const user = await createUser(t);
    const session = await login(t, user.email, user.password);
    expect((await post('/api/auth/forgot-password/', { email: user.email })).statusCode).toBe(200);
    const code = await latestCode(t, user.email);
    const missingPassword = await post('/api/auth/forgot-password/', { email: user.email, otp: code });
    expect(missingPassword.statusCode).toBe(400);
    expect(missingPassword.json().errors.new_password).toBeDefined();

    const res = await post('/api/auth/forgot-password/', { email: user.email, otp: code, new_password: 'reset-and-fresh' });
    expect(res.statusCode).toBe(200);
    expect((await post('/api/auth/token/refresh/', { refresh: session.refresh })).statusCode).toBe(401);
    expect((await post('/api/auth/login/', { email: user.email, password: 'reset-and-fresh' })).statusCode).toBe(200);
    // The code is spent.
    expect((await post('/api/auth/forgot-password/', { email: user.email, otp: code, new_password: 'another-one-1' })).statusCode).toBe(400);
  });
});

describe('profile, trial and admin', () => {
  it('shows and edits the profile, refusing unknown or invalid fields', async () => {
    const me = await signedIn(t);
    const got = await t.app.inject({ url: '/api/auth/profile/', headers: me.headers });
    expect(got.json().data).toMatchObject({ email: me.user.email, role: 'student', user_type: 'student' });

    const patched = await t.app.inject({ method: 'PATCH', url: '/api/auth/profile/', headers: me.headers, payload: { first_name: 'Grace', phone: '+44 20 7946 0000' } });
    expect(patched.statusCode).toBe(200);
    expect(patched.json().data).toMatchObject({ first_name: 'Grace', phone: '+44 20 7946 0000' });

    const sneaky = await t.app.inject({ method: 'PATCH', url: '/api/auth/profile/', headers: me.headers, payload: { user_type: 'admin' } });
    expect(sneaky.statusCode).toBe(400);
    const blank = await t.app.inject({ method: 'PATCH', url: '/api/auth/profile/', headers: me.headers, payload: { first_name: '' } });
    expect(blank.statusCode).toBe(400);
    const [row] = await t.db.select().from(users).where(eq(users.id, me.user.id));
    expect(row!.userType).toBe('student');
    expect(row!.firstName).toBe('Grace');
  });

  it('reports trial status computed from the clock', async () => {
    const me = await signedIn(t);
    const res = await t.app.inject({ url: '/api/auth/trial-status/', headers: me.headers });
    expect(res.json().data).toMatchObject({ is_trial: true, has_purchased: false, trial_days: 7 });
    await t.db.update(users).set({ trialEndsAt: new Date(Date.now() - 1000) }).where(eq(users.id, me.user.id));
    const after = await t.app.inject({ url: '/api/auth/trial-status/', headers: me.headers });
    expect(after.json().data).toMatchObject({ is_trial: false, trial_remaining_seconds: 0 });
  });

  it('lets an admin create a teacher, and refuses a student with 403', async () => {
    const admin = await signedIn(t, 'admin');
    const body = { email: uniqueEmail('teacher'), password: 'teach-me-please', first_name: 'Tom', last_name: 'Chen', user_type: 'teacher' };
    const made = await post('/api/admin/users/', body, admin.headers);
    expect(made.statusCode).toBe(201);
    expect(made.json().data.user_type).toBe('teacher');
    expect((await post('/api/auth/login/', { email: body.email, password: body.password })).json().data.user_type).toBe('teacher');

    const student = await signedIn(t);
    const refused = await post('/api/admin/users/', { ...body, email: uniqueEmail() }, student.headers);
    expect(refused.statusCode).toBe(403);
    expect((await post('/api/admin/users/', body)).statusCode).toBe(401);
  });
});
