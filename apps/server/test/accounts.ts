// Helpers for tests that need people: read mailed codes from the outbox, sign up, make staff, log in.
import { readdirSync, readFileSync, existsSync } from 'node:fs';
import path from 'node:path';
import { limits } from '@mooz/contract/limits';
import type { TestApp } from './app';
import { createActiveUser } from '../src/modules/auth/users';
import { presentUser } from '../src/modules/auth/presenter';

export interface OutboxMail {
  to: string;
  subject: string;
  text: string;
  html?: string;
  headers?: Record<string, string>;
  sent_at: string;
}

/** Every mail sent so far, once the outbox has done the work already asked of it. */
export async function outbox(t: TestApp): Promise<OutboxMail[]> {
  await t.app.outbox.idle();
  const dir = path.join(t.dataDir, 'outbox');
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .sort()
    .map((f) => JSON.parse(readFileSync(path.join(dir, f), 'utf8')) as OutboxMail);
}

/** The one-time code (`limits.otpLength` digits) in the newest mail to `email`. */
export async function latestCode(t: TestApp, email: string): Promise<string> {
  const mail = (await outbox(t)).filter((m) => m.to === email).at(-1);
  const code = mail?.text.match(new RegExp(`\\b(\\d{${limits.otpLength}})\\b`))?.[1];
  if (!code) throw new Error(`no code mailed to ${email}`);
  return code;
}

let counter = 0;
export const uniqueEmail = (prefix = 'user') => `${prefix}${Date.now()}${++counter}@example.test`;

/** Creates an active account directly, as an admin would; no mail, no rate limits. */
export async function createUser(
  t: TestApp,
  options: { userType?: 'student' | 'teacher' | 'admin'; email?: string; password?: string; firstName?: string } = {},
) {
  const email = options.email ?? uniqueEmail(options.userType ?? 'student');
  const password = options.password ?? 'correct horse battery';
  const row = await createActiveUser(
    t.db,
    { email, password, first_name: options.firstName ?? 'Test', last_name: 'Person', user_type: options.userType ?? 'student' },
    { trialDays: t.config.trialDays },
  );
  const data = presentUser(row, false, new Date());
  return { ...data, password };
}

export async function login(t: TestApp, email: string, password: string) {
  const res = await t.app.inject({ method: 'POST', url: '/api/auth/login/', payload: { email, password } });
  if (res.statusCode !== 200) throw new Error(`login failed: ${res.statusCode} ${res.body}`);
  return res.json().data as { access: string; refresh: string; user: { id: number } };
}

/** An active user of the given type and their tokens. */
export async function signedIn(t: TestApp, userType: 'student' | 'teacher' | 'admin' = 'student') {
  const user = await createUser(t, { userType });
  const tokens = await login(t, user.email, user.password);
  return { access: tokens.access, refresh: tokens.refresh, user, headers: { authorization: `Bearer ${tokens.access}` } };
}
