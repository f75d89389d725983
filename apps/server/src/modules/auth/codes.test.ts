// One-time codes under concurrent guessing: the five-try limit holds however many guesses arrive at
// once (on PostgreSQL they really run in parallel), so a code cannot be brute-forced by racing it.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { limits } from '@mooz/contract/limits';
import { buildTestApp, type TestApp } from '../../../test/app';
import { latestCode, uniqueEmail } from '../../../test/accounts';
import { otpCodes, users } from '../../db/schema/index';

let t: TestApp;
beforeEach(async () => {
  // Per-address limits would refuse most of the flood before it reaches the code; the code's own
  // limit is what is under test.
  t = await buildTestApp({ RATE_LIMIT_SCALE: '100' });
});
afterEach(async () => {
  await t.close();
});

const post = (url: string, payload: unknown) => t.app.inject({ method: 'POST', url, payload: payload as object });

/** `count` distinct six-digit codes, none of them `right`. */
function wrongCodes(right: string, count: number) {
  const codes: string[] = [];
  for (let n = 0; codes.length < count; n++) {
    const code = String(n * 7919).padStart(limits.otpLength, '0').slice(-limits.otpLength);
    if (code !== right && !codes.includes(code)) codes.push(code);
  }
  return codes;
}

async function codeRow(email: string, purpose: 'verify' | 'reset') {
  const [user] = await t.db.select().from(users).where(eq(users.email, email));
  const rows = await t.db.select().from(otpCodes).where(and(eq(otpCodes.userId, user!.id), eq(otpCodes.purpose, purpose)));
  return rows.at(-1)!;
}

describe('one-time codes raced by many guesses at once', () => {
  it('compares at most five guesses of a reset code, burns it, and the right code then fails', async () => {
    const email = uniqueEmail('victim');
    await post('/api/auth/register/', { email, password: 'the-old-password', first_name: 'Vic', last_name: 'Tim' });
    await post('/api/auth/verify-otp/', { email, otp: await latestCode(t, email) });
    await t.app.rateLimiter.reset('mailPerEmail', email);
    expect((await post('/api/auth/forgot-password/', { email })).statusCode).toBe(200);
    const right = await latestCode(t, email);

    const guesses = await Promise.all(
      wrongCodes(right, 60).map((otp) => post('/api/auth/forgot-password/', { email, otp, new_password: 'attacker-password' })),
    );
    expect(guesses.every((res) => res.statusCode === 400)).toBe(true);
    // Exactly five guesses were compared: four were told they were wrong; the fifth burned the code,
    // and every other is told it is burned.
    expect(guesses.filter((res) => res.json().message === 'The code is wrong or has expired')).toHaveLength(limits.otpMaxAttempts - 1);
    expect(guesses.filter((res) => res.json().message === 'Too many wrong attempts. Request a new code.')).toHaveLength(60 - (limits.otpMaxAttempts - 1));
    const row = await codeRow(email, 'reset');
    // Burned: no tries left (it stays the current code, so a later try is told so, until a new one is sent).
    expect(row.attempts).toBe(limits.otpMaxAttempts);

    const late = await post('/api/auth/forgot-password/', { email, otp: right, new_password: 'attacker-password' });
    expect(late.statusCode).toBe(400);
    expect(late.json().message).toBe('Too many wrong attempts. Request a new code.');
    expect((await post('/api/auth/login/', { email, password: 'the-old-password' })).statusCode).toBe(200);
  });

  it('holds the same limit for a sign-up verification code', async () => {
    const email = uniqueEmail('signup');
    await post('/api/auth/register/', { email, password: 'a-good-password', first_name: 'Ann', last_name: 'Lee' });
    const right = await latestCode(t, email);
    await Promise.all(wrongCodes(right, 60).map((otp) => post('/api/auth/verify-otp/', { email, otp })));
    expect((await codeRow(email, 'verify')).attempts).toBe(limits.otpMaxAttempts);
    expect((await post('/api/auth/verify-otp/', { email, otp: right })).statusCode).toBe(400);
    const [user] = await t.db.select().from(users).where(eq(users.email, email));
    expect(user!.isActive).toBe(false);
  });

  it('lets the right code through when it comes within the five tries', async () => {
    const email = uniqueEmail('honest');
    await post('/api/auth/register/', { email, password: 'a-good-password', first_name: 'Hon', last_name: 'Est' });
    const right = await latestCode(t, email);
    for (const otp of wrongCodes(right, limits.otpMaxAttempts - 1)) {
      expect((await post('/api/auth/verify-otp/', { email, otp })).statusCode).toBe(400);
    }
    expect((await post('/api/auth/verify-otp/', { email, otp: right })).statusCode).toBe(200);
  });
});
