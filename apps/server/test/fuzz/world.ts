// The app under fuzz and the rows that let valid requests reach deep code: people of every role with
// tokens, courses of two teachers, a session, pending orders of two students, spare refresh tokens in
// every state, an account waiting for its verification code. Their ids, emails, codes and signatures
// become hints for the generators.
import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import type { IncomingMessage } from 'node:http';
import { SignJWT } from 'jose';
import { batchEndDate, type Course } from '@mooz/contract/courses';
import { buildTestApp, type TestApp } from '../app';
import { createUser, latestCode, login, outbox, signedIn, uniqueEmail } from '../accounts';
import {
  createCourse,
  createOrder,
  daysFromNow,
  paidCheckout,
  sampleCourse,
  weekdayChoice,
  weekendChoice,
} from '../courses';
import { signAccessToken, signRefreshToken } from '../../src/infrastructure/tokens';
import { subscriptions } from '../../src/db/schema/index';
import { withRouteCatalogue, type RouteCatalogue } from './routes';
import { fingerprinter, type Fingerprint } from './fingerprint';

const PASSWORD = 'correct horse battery';

const roles = ['student', 'teacher', 'admin'] as const;
type Role = (typeof roles)[number];

/** Who calls: nobody, someone with a bad or an expired token, or a signed-in student, teacher or admin. */
export const identityNames = ['nobody', 'bad-token', 'expired-token', 'student', 'teacher', 'admin'] as const;
export type IdentityName = (typeof identityNames)[number];

export interface World {
  t: TestApp;
  catalogue: RouteCatalogue;
  fingerprint: { tables: string[]; take(): Promise<Fingerprint> };
  /** The Authorization header of each identity; `bad-token` has several, picked by index. */
  authorization(name: IdentityName, variant: number): string | undefined;
  /** Values worth trying per field name, and whole bodies worth trying at the root. */
  pools: Record<string, unknown[]>;
  rootBodies: unknown[];
  /** The pending orders (set by prepare()), for payment bodies and webhook events. */
  orders: { order_id: string; subscription_id: string; amount: number; currency: string }[];
  /** Resolves once the work the app does after answering (its mail and code outbox) is done. */
  settle(): Promise<void>;
  /**
   * Gets the world ready for the next route: signs in a fresh user of a role whose token no longer works
   * (a fuzzed request may reset a password), offers the newest mailed codes and an unused refresh
   * token. Returns the roles that had to be signed in again.
   */
  prepare(): Promise<string[]>;
  close(): Promise<void>;
}

const DAY = 86_400_000;

export async function createWorld(env: Record<string, string> = {}): Promise<World> {
  // Rate limits scaled up so the fuzz reaches the handlers rather than a wall of 429s.
  const { built: t, catalogue } = await withRouteCatalogue(() => buildTestApp({ RATE_LIMIT_SCALE: '1000', ...env }));
  try {
    return await seed(t, catalogue);
  } catch (error) {
    await t.close();
    throw error;
  }
}

async function seed(t: TestApp, catalogue: RouteCatalogue): Promise<World> {
  const signed = {
    student: await signedIn(t, 'student'),
    teacher: await signedIn(t, 'teacher'),
    admin: await signedIn(t, 'admin'),
  };
  const student2 = await signedIn(t, 'student');
  const teacher2 = await createUser(t, { userType: 'teacher', firstName: 'Other' });

  const inject = async (method: 'POST' | 'PATCH', url: string, headers: Record<string, string>, payload: object) => {
    const res = await t.app.inject({ method, url, headers, payload });
    if (res.statusCode >= 300) {
      const cause = catalogue.errorOf(res.raw.req as IncomingMessage);
      throw new Error(
        `seeding ${method} ${url} failed: ${res.statusCode} ${res.body}${cause ? ` (${cause.stack})` : ''}`,
      );
    }
    return res.json() as { data: Record<string, unknown> };
  };

  const courseA = await createCourse(t, signed.teacher.headers);
  const courseB: Course = await createCourse(t, signed.admin.headers, {
    name: 'Another teacher’s course',
    teacher_id: teacher2.id,
    weekday_times: [],
    weekend_times: ['08:00'],
  });
  const unpublished = await createCourse(t, signed.teacher.headers, { name: 'Draft course', published: false });
  const session = await inject('POST', '/api/classes/sessions/', signed.teacher.headers, {
    course_id: courseA.id,
    title: 'Fuzz session',
    starts_at: new Date(Date.now() + DAY).toISOString(),
    duration_minutes: 60,
  });

  // Pending orders of the student and of another student; prepare() reads them back before each route.
  await createOrder(t, signed.student.headers, weekdayChoice(courseA));
  await createOrder(t, student2.headers, weekendChoice(courseB));

  // Refresh tokens in every state, none of them the identities' own families.
  const fresh = (await login(t, signed.student.user.email, PASSWORD)).refresh;
  const used = (await login(t, signed.teacher.user.email, PASSWORD)).refresh;
  const rotated = await inject('POST', '/api/auth/token/refresh/', {}, { refresh: used });
  const revoked = (await login(t, student2.user.email, PASSWORD)).refresh;
  await inject('POST', '/api/auth/logout/', {}, { refresh: revoked });
  const forged = await signRefreshToken(
    'not-the-server-secret-but-long-enough',
    { tokenId: randomUUID(), userId: signed.student.user.id, familyId: randomUUID() },
    new Date(Date.now() + DAY),
  );
  const expiredRefresh = await signRefreshToken(
    t.app.jwtSecret,
    { tokenId: randomUUID(), userId: signed.student.user.id, familyId: randomUUID() },
    new Date(Date.now() - DAY),
  );

  // An account that signed up and waits for its code.
  const unverifiedEmail = uniqueEmail('unverified');
  await inject(
    'POST',
    '/api/auth/register/',
    {},
    { email: unverifiedEmail, password: PASSWORD, first_name: 'Una', last_name: 'Verified' },
  );
  const code = await latestCode(t, unverifiedEmail);

  const expiredAccess = await signAccessToken(
    t.app.jwtSecret,
    { userId: signed.student.user.id, userType: 'student', familyId: randomUUID() },
    -60,
  );
  const foreignAccess = await new SignJWT({ typ: 'access', role: 'admin', fam: randomUUID() })
    .setProtectedHeader({ alg: 'HS256' })
    .setIssuer('mooz')
    .setSubject(String(signed.admin.user.id))
    .setExpirationTime('1h')
    .sign(new TextEncoder().encode('a-different-secret-of-sufficient-length'));
  const badTokens = [
    'Bearer not-a-jwt',
    `Bearer ${foreignAccess}`,
    `Bearer ${fresh}`, // a refresh token where an access token belongs
    `Bearer ${signed.admin.access.slice(0, -4)}AAAA`, // a tampered signature
    'Bearer ',
    `Basic ${Buffer.from('admin:admin').toString('base64')}`,
    `bearer ${signed.admin.access}`,
    `Bearer ${'A'.repeat(10_000)}`,
    'Bearer \u0000',
  ];

  const tokens: Record<Role, string> = {
    student: signed.student.access,
    teacher: signed.teacher.access,
    admin: signed.admin.access,
  };

  const courses = [courseA, courseB, unpublished];
  const ends = courses.flatMap((c) => c.batch_start_dates.map((d) => batchEndDate(d, c.duration_weeks)));
  const people = [signed.student.user, signed.teacher.user, signed.admin.user, student2.user, teacher2];
  const pools: Record<string, unknown[]> = {
    email: [
      ...people.map((p) => p.email),
      unverifiedEmail,
      signed.student.user.email.toUpperCase(),
      ` ${signed.teacher.user.email} `,
    ],
    password: [PASSWORD],
    old_password: [PASSWORD],
    otp: [code],
    refresh: [fresh, used, (rotated.data as { refresh: string }).refresh, revoked, forged, expiredRefresh],
    id: [...courses.map((c) => c.id), session.data.id],
    course_id: courses.map((c) => c.id),
    teacher_id: people.map((p) => p.id),
    start_date: [...courses.flatMap((c) => c.batch_start_dates), daysFromNow(-1)],
    end_date: ends,
    time: courses.flatMap((c) => c.weekday_times),
    saturday_time: courses.flatMap((c) => c.weekend_times),
    sunday_time: courses.flatMap((c) => c.weekend_times),
    currency: ['INR', 'inr', 'USD'],
  };
  const baseRefresh = [...pools.refresh!];
  const baseBodies: unknown[] = [
    weekdayChoice(courseA),
    weekendChoice(courseA),
    weekendChoice(courseB),
    weekdayChoice(unpublished),
    sampleCourse(),
    { ...sampleCourse(), teacher_id: teacher2.id },
    { price: 100, published: false },
    { email: signed.student.user.email, password: PASSWORD },
    { email: unverifiedEmail, otp: code, purpose: 'verify' },
    { email: signed.student.user.email, purpose: 'reset' },
    { old_password: PASSWORD, new_password: `${PASSWORD} 2` },
    {
      course_id: courseA.id,
      title: 'Another session',
      starts_at: new Date(Date.now() + 2 * DAY).toISOString(),
      duration_minutes: 45,
    },
    {
      course_id: courseB.id,
      title: 'Not my course',
      starts_at: new Date(Date.now() + 2 * DAY).toISOString(),
      duration_minutes: 45,
    },
    { email: uniqueEmail('fuzz'), password: PASSWORD, first_name: 'Fuzz', last_name: 'Person', user_type: 'teacher' },
  ];
  const rootBodies = [...baseBodies];
  let payments = 0;

  const world: World = {
    t,
    catalogue,
    fingerprint: await fingerprinter(t.db),
    authorization(name, variant) {
      switch (name) {
        case 'nobody':
          return undefined;
        case 'bad-token':
          return badTokens[variant % badTokens.length];
        case 'expired-token':
          return `Bearer ${expiredAccess}`;
        default:
          return `Bearer ${tokens[name]}`;
      }
    },
    pools,
    rootBodies,
    async settle() {
      await (t.app as unknown as { outbox?: { idle(): Promise<void> } }).outbox?.idle();
    },
    orders: [],
    async prepare() {
      const revived: string[] = [];
      for (const role of roles) {
        const res = await t.app.inject({
          method: 'GET',
          url: '/api/auth/profile/',
          headers: { authorization: `Bearer ${tokens[role]}` },
        });
        if (res.statusCode === 200) continue;
        tokens[role] = (await signedIn(t, role)).access;
        revived.push(role);
      }
      // The newest code mailed to each address, offered for verifying and for resetting (to the same
      // password, so the pools stay right; a reset signs that user out, and prepare() signs in again).
      const latest = new Map<string, string>();
      for (const mail of await outbox(t)) {
        const found = /\b(\d{6})\b/.exec(mail.text)?.[1];
        if (found) latest.set(mail.to, found);
      }
      const recent = [...latest].slice(-6);
      pools.otp = recent.map(([, otp]) => otp);
      rootBodies.splice(
        0,
        rootBodies.length,
        ...baseBodies,
        ...recent.flatMap(([email, otp]) => [
          { email, otp, purpose: 'verify' },
          { email, otp, purpose: 'reset' },
          { email, otp, new_password: PASSWORD },
        ]),
      );
      const unused = await login(t, student2.user.email, PASSWORD).then(
        (tokens) => [tokens.refresh],
        () => [],
      );
      pools.refresh = [...baseRefresh, ...unused];
      // The student has an order to pay: after a route paid it, order another course.
      const studentHeaders = { authorization: `Bearer ${tokens.student}` };
      for (const choice of [weekendChoice(courseB), weekdayChoice(courseA), weekendChoice(courseA)]) {
        const res = await t.app.inject({
          method: 'POST',
          url: '/api/payments/create_order/',
          headers: studentHeaders,
          payload: choice,
        });
        if (res.statusCode === 200) break;
      }
      // The pending orders as they are now (ordering again may give a subscription a new order id),
      // each with the signature its checkout would hand back, and a payment id not used before.
      const pending = await t.db
        .select({
          order_id: subscriptions.orderId,
          subscription_id: subscriptions.id,
          amount: subscriptions.amount,
          currency: subscriptions.currency,
        })
        .from(subscriptions)
        .where(eq(subscriptions.status, 'pending'));
      const checkouts = pending.map((o) => ({
        ...paidCheckout(t, o, `pay_fuzz_${++payments}`),
        subscription_id: o.subscription_id,
      }));
      world.orders = pending;
      pools.order_id = pools.razorpay_order_id = pending.map((o) => o.order_id);
      pools.subscription_id = pending.map((o) => o.subscription_id);
      pools.razorpay_payment_id = checkouts.map((c) => c.razorpay_payment_id);
      pools.razorpay_signature = checkouts.map((c) => c.razorpay_signature);
      rootBodies.push(...checkouts, ...pending.map((o) => ({ order_id: o.order_id })));
      return revived;
    },
    close: () => t.close(),
  };
  return world;
}
