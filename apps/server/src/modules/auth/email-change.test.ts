// Changing one's email: the current password, then a code mailed to the new address and bound to it;
// the change, the end of the old codes and the notice to the previous address commit together. Every
// refusal leaves the account as it was and tells nobody anything.
import { describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { appPerTest } from '../../../test/app';
import { createUser, latestCode, login, outbox, signedIn, uniqueEmail } from '../../../test/accounts';
import { notifications, otpCodes, users } from '../../db/schema/index';

const t = appPerTest();

type Headers = Record<string, string>;
const post = (url: string, payload: unknown, headers: Headers = {}) => t.app.inject({ method: 'POST', url, payload: payload as object, headers });
const request = (headers: Headers, body: unknown) => post('/api/auth/change-email/', body, headers);
const confirm = (headers: Headers, body: unknown) => post('/api/auth/change-email/confirm/', body, headers);

/** What a refusal must leave alone: the address, the notices, the mails of the account. */
async function accountState(userId: number) {
  const [row] = await t.db.select({ email: users.email }).from(users).where(eq(users.id, userId));
  const told = await t.db.select().from(notifications).where(and(eq(notifications.userId, userId), eq(notifications.kind, 'email_changed')));
  const notices = (await outbox(t)).filter((m) => m.subject.includes('email address was changed'));
  return { email: row!.email, told: told.length, notices: notices.length };
}

const changedMail = async () => (await outbox(t)).filter((m) => m.subject === 'Your Mooz email address was changed');

describe('changing the email address', () => {
  it('mails a code to the new address, changes it on that code, and tells the previous address once', async () => {
    const me = await signedIn(t);
    const previous = me.user.email;
    const next = uniqueEmail('renamed');
    const asked = await request(me.headers, { new_email: next.toUpperCase(), password: me.user.password });
    expect(asked.statusCode).toBe(200);
    expect(asked.json()).toEqual({ data: null, message: 'We sent a code to the new address' });
    const codeMail = (await outbox(t)).at(-1)!;
    expect([codeMail.to, codeMail.subject]).toEqual([next, 'Your Mooz code to confirm this email address']);
    // Nothing moves before the code comes back.
    expect(await accountState(me.user.id)).toEqual({ email: previous, told: 0, notices: 0 });

    const done = await confirm(me.headers, { new_email: next, otp: await latestCode(t, next) });
    expect(done.statusCode).toBe(200);
    expect(done.json().message).toBe('Your email address has been changed');
    expect(done.json().data).toMatchObject({ id: me.user.id, email: next });
    const profile = await t.app.inject({ method: 'GET', url: '/api/auth/profile/', headers: me.headers });
    expect(profile.json().data.email).toBe(next);

    const notices = await changedMail();
    expect(notices).toHaveLength(1);
    expect(notices[0]!.to).toBe(previous);
    expect(notices[0]!.text).toContain(`from ${previous} to re•••@example.test`);
    expect(notices[0]!.text).not.toContain(next);
    expect(notices[0]!.html).toContain('re•••@example.test');
    const list = (await t.app.inject({ method: 'GET', url: '/api/notifications/', headers: me.headers })).json().data.items;
    expect(list.filter((n: { kind: string }) => n.kind === 'email_changed')).toHaveLength(1);

    expect((await post('/api/auth/login/', { email: next, password: me.user.password })).statusCode).toBe(200);
    expect((await post('/api/auth/login/', { email: previous, password: me.user.password })).statusCode).toBe(401);
    // The code is spent: sending it again changes nothing and tells nobody again.
    expect((await confirm(me.headers, { new_email: next, otp: await latestCode(t, next) })).statusCode).toBe(400);
    expect(await changedMail()).toHaveLength(1);
  });

  it("writes the previous address's notice in the person's language", async () => {
    const me = await signedIn(t);
    await t.db.update(users).set({ language: 'fr' }).where(eq(users.id, me.user.id));
    const next = uniqueEmail('nouveau');
    await request(me.headers, { new_email: next, password: me.user.password });
    expect((await confirm(me.headers, { new_email: next, otp: await latestCode(t, next) })).statusCode).toBe(200);
    const mail = (await outbox(t)).at(-1)!;
    expect(mail.to).toBe(me.user.email);
    expect(mail.subject).toBe('Votre adresse e-mail Mooz a été modifiée');
    expect(mail.text).toContain(`de ${me.user.email} en no•••@example.test`);
  });

  it('refuses a wrong password, the same address and a taken one, mailing nothing', async () => {
    const me = await signedIn(t);
    const other = await createUser(t);
    const before = (await outbox(t)).length;

    const wrong = await request(me.headers, { new_email: uniqueEmail(), password: 'not-my-password' });
    expect([wrong.statusCode, wrong.json()]).toEqual([400, { message: 'The current password is not correct', errors: { password: ['The current password is not correct'] } }]);

    const same = await request(me.headers, { new_email: me.user.email.toUpperCase(), password: me.user.password });
    expect([same.statusCode, same.json().errors]).toEqual([400, { new_email: ['This is already your email address'] }]);

    const taken = await request(me.headers, { new_email: other.email, password: me.user.password });
    expect([taken.statusCode, taken.json().errors]).toEqual([409, { new_email: ['An account with this email already exists'] }]);

    const invalid = await request(me.headers, { new_email: 'not-an-address', password: me.user.password });
    expect([invalid.statusCode, invalid.json().errors]).toEqual([400, { new_email: ['Enter a valid email address'] }]);

    expect((await outbox(t)).length).toBe(before);
    expect(await t.db.select().from(otpCodes).where(eq(otpCodes.userId, me.user.id))).toEqual([]);
    expect(await accountState(me.user.id)).toEqual({ email: me.user.email, told: 0, notices: 0 });
  });

  it('counts wrong passwords as failed logins: after five in a row the next one waits', async () => {
    const me = await signedIn(t);
    for (let i = 0; i < 5; i++) expect((await request(me.headers, { new_email: uniqueEmail(), password: `wrong-${i}` })).statusCode).toBe(400);
    const waiting = await request(me.headers, { new_email: uniqueEmail(), password: me.user.password });
    expect(waiting.statusCode).toBe(429);
    expect(waiting.headers['retry-after']).toBeDefined();
  });

  it('mails a new address one code a minute, as every other code', async () => {
    const me = await signedIn(t);
    const next = uniqueEmail();
    expect((await request(me.headers, { new_email: next, password: me.user.password })).statusCode).toBe(200);
    const again = await request(me.headers, { new_email: next, password: me.user.password });
    expect(again.statusCode).toBe(429);
    expect(again.headers['retry-after']).toBeDefined();
  });

  it('refuses a wrong code, an expired one, one sent to another address, and a code of another purpose', async () => {
    const me = await signedIn(t);
    const next = uniqueEmail('mine');
    const elsewhere = uniqueEmail('elsewhere');
    await request(me.headers, { new_email: next, password: me.user.password });
    const right = await latestCode(t, next);
    const wrongCode = right === '000000' ? '111111' : '000000';
    const refusals = [
      await confirm(me.headers, { new_email: next, otp: wrongCode }),
      // The right code, for an address it was not sent to: that mailbox proved nothing.
      await confirm(me.headers, { new_email: elsewhere, otp: right }),
    ];
    // A reset code of the same account is no email change's code.
    await post('/api/auth/forgot-password/', { email: me.user.email });
    refusals.push(await confirm(me.headers, { new_email: next, otp: await latestCode(t, me.user.email) }));
    for (const res of refusals) {
      expect([res.statusCode, res.json()]).toEqual([400, { message: 'The code is wrong or has expired', errors: { otp: ['The code is wrong or has expired'] } }]);
    }
    expect(await accountState(me.user.id)).toEqual({ email: me.user.email, told: 0, notices: 0 });

    await t.db.update(otpCodes).set({ expiresAt: new Date(Date.now() - 1000) }).where(and(eq(otpCodes.userId, me.user.id), eq(otpCodes.purpose, 'email_change')));
    const expired = await confirm(me.headers, { new_email: next, otp: right });
    expect([expired.statusCode, expired.json().message]).toEqual([400, 'The code is wrong or has expired']);
    expect(await accountState(me.user.id)).toEqual({ email: me.user.email, told: 0, notices: 0 });
  });

  it("refuses another account's code, and keeps the owner's working", async () => {
    const owner = await signedIn(t);
    const intruder = await signedIn(t);
    const next = uniqueEmail('wanted');
    await request(owner.headers, { new_email: next, password: owner.user.password });
    const code = await latestCode(t, next);
    const stolen = await confirm(intruder.headers, { new_email: next, otp: code });
    expect([stolen.statusCode, stolen.json().message]).toEqual([400, 'The code is wrong or has expired']);
    expect(await accountState(intruder.user.id)).toEqual({ email: intruder.user.email, told: 0, notices: 0 });
    expect((await confirm(owner.headers, { new_email: next, otp: code })).statusCode).toBe(200);
  });

  it('refuses an address taken while its code was on the way, and changes nothing', async () => {
    const me = await signedIn(t);
    const next = uniqueEmail('raced');
    await request(me.headers, { new_email: next, password: me.user.password });
    const code = await latestCode(t, next);
    await createUser(t, { email: next });
    const res = await confirm(me.headers, { new_email: next, otp: code });
    expect([res.statusCode, res.json().errors]).toEqual([409, { new_email: ['An account with this email already exists'] }]);
    expect(await accountState(me.user.id)).toEqual({ email: me.user.email, told: 0, notices: 0 });
  });

  it('ends the codes the previous address was sent: its reset code no longer resets', async () => {
    const me = await signedIn(t);
    await post('/api/auth/forgot-password/', { email: me.user.email });
    const resetCode = await latestCode(t, me.user.email);
    const next = uniqueEmail('moved');
    await request(me.headers, { new_email: next, password: me.user.password });
    expect((await confirm(me.headers, { new_email: next, otp: await latestCode(t, next) })).statusCode).toBe(200);
    const reset = await post('/api/auth/forgot-password/', { email: next, otp: resetCode, new_password: 'a-takeover-password' });
    expect(reset.statusCode).toBe(400);
    expect((await login(t, next, me.user.password)).user.id).toBe(me.user.id);
  });

  it('is for signed-in people only', async () => {
    expect((await request({}, { new_email: uniqueEmail(), password: 'whatever-it-is' })).statusCode).toBe(401);
    expect((await confirm({}, { new_email: uniqueEmail(), otp: '123456' })).statusCode).toBe(401);
  });
});
