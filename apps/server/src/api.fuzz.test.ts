// Property-based fuzzing of every HTTP endpoint, from the routes' own zod schemas (test/fuzz/).
//
// The routes are read from the app as it registers them (test/fuzz/routes.ts). Each route is fuzzed
// with valid and mutated params, querystrings and bodies, as nobody, with a bad or an expired token,
// and as a student, a teacher and an admin, and every answer is held to four properties
// (test/fuzz/oracle.ts): no 5xx; the answer matches the schema the route declares for its status; a
// refused request changes nothing in the database; what the route's schema refuses is never accepted.
//
// Fixed seed and bounded runs: FUZZ_SEED and FUZZ_RUNS (per route that takes input; a route that takes
// none gets a third) change them, e.g.
//   FUZZ_SEED=7 FUZZ_RUNS=300 npx vitest run --project server api.fuzz
// FUZZ_REPORT=/path/file.jsonl appends every distinct failure found, one JSON object a line.
import fc from 'fast-check';
import { z } from 'zod';
import { afterAll, describe, expect, it } from 'vitest';
import {
  changePasswordBody,
  createUserBody,
  forgotPasswordBody,
  loginBody,
  profilePatchBody,
  registerBody,
  sendOtpBody,
  verifyOtpBody,
} from '@mooz/contract/auth';
import { courseIdParams, courseInput, coursePatch, sessionInput } from '@mooz/contract/courses';
import { createOrderBody, sandboxPayBody, verifyPaymentBody } from '@mooz/contract/payments';
import { zodArbitrary, type AnySchema } from '../test/fuzz/zod-arbitrary';
import { applyMutation, mutatedArbitrary, preview } from '../test/fuzz/zod-mutations';
import { createWorld } from '../test/fuzz/world';
import { fuzzRoute, renderFindings, runsFor, settingsFromEnv } from '../test/fuzz/driver';
import { schemaOf } from '../test/fuzz/routes';
import { differences } from '../test/fuzz/fingerprint';

const settings = settingsFromEnv();

const contractSchemas: Record<string, AnySchema> = {
  registerBody,
  sendOtpBody,
  verifyOtpBody,
  loginBody,
  forgotPasswordBody,
  changePasswordBody,
  profilePatchBody,
  createUserBody,
  courseInput,
  coursePatch,
  courseIdParams,
  sessionInput,
  createOrderBody,
  verifyPaymentBody,
  sandboxPayBody,
};

// One schema per kind the walker knows, with the checks it models.
const tree: z.ZodType = z.lazy(() => z.object({ name: z.string().min(1).max(5), children: z.array(tree).max(2) }));
const kindSchemas: Record<string, AnySchema> = {
  'string min/max': z.string().min(3).max(7),
  'string trim + min': z.string().trim().min(2).max(10),
  'string length': z.string().length(4),
  email: z.email(),
  'email in a pipe': z.string().trim().toLowerCase().max(254).pipe(z.email()),
  url: z.url(),
  'iso date': z.iso.date(),
  'iso datetime with offset': z.iso.datetime({ offset: true }),
  'iso datetime, UTC, seconds': z.iso.datetime({ precision: 0 }),
  'iso datetime, local': z.iso.datetime({ local: true }),
  'iso time': z.iso.time(),
  uuid: z.uuid(),
  regex: z.string().regex(/^[A-Z]{3}-\d{2,4}$/),
  'regex with a lookahead': z
    .string()
    .min(8)
    .max(20)
    .regex(/^(?!\d+$)/),
  'starts/ends with, lowercase': z.string().startsWith('ab').endsWith('yz').lowercase(),
  int: z.number().int().min(-5).max(5),
  'positive int up to 2^31-1': z.number().int().positive().max(2_147_483_647),
  'int multiple of 5': z.number().int().multipleOf(5).min(0).max(100),
  'float, exclusive bounds': z.number().gt(0).lt(1),
  'coerced number': z.coerce.number().int().min(1),
  int32: z.int32(),
  boolean: z.boolean(),
  enum: z.enum(['weekdays', 'weekends']),
  literal: z.literal('ok'),
  'array min/max': z.array(z.iso.date()).min(1).max(3),
  'array, unique refinement': z
    .array(z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$/))
    .max(12)
    .refine((l) => new Set(l).size === l.length),
  optional: z.object({ a: z.string().optional(), b: z.number() }),
  nullable: z.string().min(1).nullable(),
  default: z.object({ capacity: z.number().int().min(2).max(50).default(10) }),
  union: z.union([z.literal('a'), z.number().int().min(10), z.object({ kind: z.literal('x') })]),
  'discriminated union': z.discriminatedUnion('type', [
    z.object({ type: z.literal('a'), a: z.string() }),
    z.object({ type: z.literal('b'), b: z.number() }),
  ]),
  pipe: z.string().regex(/^\d+$/).transform(Number).pipe(z.number().max(1000)),
  transform: z
    .string()
    .min(2)
    .transform((s) => s.length),
  refinement: z.object({ from: z.number().int(), to: z.number().int() }).refine((v) => v.from <= v.to),
  superRefine: z
    .object({
      otp: z
        .string()
        .regex(/^\d{6}$/)
        .optional(),
      new_password: z.string().min(8).optional(),
    })
    .superRefine((v, ctx) => {
      if ((v.otp === undefined) !== (v.new_password === undefined))
        ctx.addIssue({ code: 'custom', message: 'both or neither' });
    }),
  record: z.record(z.string().min(1), z.array(z.string())),
  null: z.null(),
  tuple: z.tuple([z.string(), z.number().int()]),
  'strict partial object': z
    .object({ name: z.string().min(1), phone: z.string().nullable() })
    .partial()
    .strict(),
  lazy: tree,
};

describe('zod arbitrary', () => {
  it.each(Object.entries({ ...kindSchemas, ...contractSchemas }))(
    'generates values that %s accepts',
    (_name, schema) => {
      fc.assert(
        fc.property(zodArbitrary(schema), (value) => {
          const parsed = z.safeParse(schema, value);
          if (!parsed.success) throw new Error(`${preview(value)} refused: ${parsed.error.issues[0]?.message}`);
        }),
        { seed: settings.seed, numRuns: 150 },
      );
    },
  );

  it('generates varied values, not one that happens to pass', () => {
    for (const [name, schema] of Object.entries({ courseInput, registerBody, sessionInput, createOrderBody })) {
      const samples = fc
        .sample(zodArbitrary(schema), { seed: settings.seed, numRuns: 100 })
        .map((v) => JSON.stringify(v));
      expect(new Set(samples).size, name).toBeGreaterThan(80);
    }
    // Optional fields are sometimes there and sometimes not.
    const phones = fc
      .sample(zodArbitrary(registerBody), { seed: settings.seed, numRuns: 100 })
      .map((v) => 'phone' in (v as object));
    expect(phones).toContain(true);
    expect(phones).toContain(false);
  });

  it('mixes hinted values in, and only those the schema accepts', () => {
    const hint = (path: readonly (string | number)[]) =>
      path.at(-1) === 'course_id' ? [42, -1, 'x', 2 ** 31] : undefined;
    const ids = fc
      .sample(zodArbitrary(sessionInput, { hint }), { seed: settings.seed, numRuns: 200 })
      .map((v) => (v as { course_id: number }).course_id);
    expect(ids).toContain(42);
    expect(ids).not.toContain(-1);
    expect(ids).not.toContain(2 ** 31);
  });

  it('mutates values into ones the schema mostly refuses', () => {
    // Some mutations keep a value valid (a newline is fine in a password, an unknown field is dropped
    // from a non-strict object), most do not.
    const shares = Object.entries(contractSchemas).map(([name, schema]) => {
      const mutated = fc.sample(mutatedArbitrary(schema), { seed: settings.seed, numRuns: 200 });
      const refused = mutated.filter(
        (m) => !z.safeParse(schema, JSON.parse(JSON.stringify(m.value) ?? 'null')).success,
      ).length;
      expect(refused / mutated.length, name).toBeGreaterThan(0.35);
      return refused / mutated.length;
    });
    expect(shares.reduce((a, b) => a + b) / shares.length).toBeGreaterThan(0.6);
  });

  it('mutates in each of the ways the fuzz relies on', () => {
    const valid = { name: 'Course', price: 100, skills: ['a'] };
    expect(applyMutation(valid, { kind: 'drop', pick: 0 }).value).toEqual({ price: 100, skills: ['a'] });
    expect(applyMutation(valid, { kind: 'replace', pick: 2, value: 2 ** 31 }).value).toEqual({
      name: 'Course',
      price: 2 ** 31,
      skills: ['a'],
    });
    expect(applyMutation(valid, { kind: 'inject', pick: 0, text: '\u0000', at: 2 }).value).toEqual({
      name: 'Co\u0000urse',
      price: 100,
      skills: ['a'],
    });
    const extra = applyMutation(valid, { kind: 'extra', pick: 0, key: '__proto__', value: { admin: true } })
      .value as object;
    expect(Object.keys(extra)).toContain('__proto__');
    expect(JSON.stringify(extra)).toContain('"__proto__":{"admin":true}');
    expect(applyMutation(valid, { kind: 'root', value: null }).value).toBeNull();
    // With the schema, a character goes into free text more often than into a date or a code.
    const schema = z.object({ name: z.string(), date: z.iso.date() });
    const into = [0, 1, 2, 3].map(
      (pick) =>
        applyMutation({ name: 'n', date: '2026-01-01' }, { kind: 'inject', pick, text: '\u0000', at: 0 }, schema)
          .mutation,
    );
    expect(into.filter((m) => m.includes('$.name'))).toHaveLength(3);
    // The valid value itself is left alone.
    expect(valid).toEqual({ name: 'Course', price: 100, skills: ['a'] });
  });
});

// The app is built while the file is collected, so that each of its routes becomes a test of its own.
const world = await createWorld();
// FUZZ_VERBOSE=1 prints which statuses each route answered: how deep the fuzz reached.
const coverage: string[] = [];
afterAll(async () => {
  if (process.env.FUZZ_VERBOSE) console.info(coverage.join('\n'));
  await world.close();
});

describe('API fuzz', () => {
  const routes = world.catalogue.routes;

  it('finds every /api route the app registers', () => {
    const keys = routes.map((r) => r.key);
    expect(keys).toEqual(
      expect.arrayContaining([
        'GET /api/health',
        'POST /api/auth/login/',
        'PATCH /api/courses/:id/',
        'POST /api/payments/webhook/',
      ]),
    );
    expect(keys.some((k) => k.includes('/api/docs'))).toBe(false);
    // The app keeps its own list of API routes (declared-failures.ts): every one of them is fuzzed here.
    const listed =
      (world.t.app as unknown as { apiRoutes?: { method: string | string[]; url: string }[] }).apiRoutes ?? [];
    for (const route of listed)
      for (const method of [route.method].flat()) expect(keys).toContain(`${method} ${route.url}`);
  });

  it('sees a change in any table, and keeps the columns a refusal may touch apart', async () => {
    await world.prepare();
    const unused = world.pools.refresh!.at(-1) as string;
    const before = await world.fingerprint.take();
    const logout = await world.t.app.inject({ method: 'POST', url: '/api/auth/logout/', payload: { refresh: unused } });
    expect(logout.statusCode).toBe(200);
    await world.settle();
    const afterLogout = await world.fingerprint.take();
    expect(differences(before, afterLogout)).toEqual(['refresh_tokens.revoked_at']);
    const headers = { authorization: world.authorization('teacher', 0)! };
    const patch = await world.t.app.inject({
      method: 'PATCH',
      url: '/api/auth/profile/',
      headers,
      payload: { last_name: 'Renamed' },
    });
    expect(patch.statusCode).toBe(200);
    await world.settle();
    expect(differences(afterLogout, await world.fingerprint.take())).toEqual(['users']);
  });

  it('generates valid values for every schema a route declares for its input', () => {
    for (const route of routes) {
      const { body, params, querystring } = schemaOf(route);
      for (const schema of [body, params, querystring].filter((s): s is AnySchema => s !== undefined)) {
        for (const value of fc.sample(zodArbitrary(schema), { seed: settings.seed, numRuns: 50 })) {
          expect(z.safeParse(schema, value).success, `${route.key}: ${preview(value)}`).toBe(true);
        }
      }
    }
  });

  for (const route of routes) {
    it(
      `${route.key} holds up (seed ${settings.seed}, ${runsFor(route, settings)} runs)`,
      { timeout: 300_000 },
      async () => {
        const revived = await world.prepare();
        const result = await fuzzRoute(world, route, settings);
        if (revived.length)
          console.warn(
            `${route.key}: signed in a new ${revived.join(', ')}; an earlier request took their access away`,
          );
        coverage.push(
          `${route.key}: ${result.runs} runs, statuses ${JSON.stringify(result.statuses)}${result.interrupted ? ' (a round hit FUZZ_ROUND_MS)' : ''}`,
        );
        if (result.findings.length) throw new Error(renderFindings(route, result.findings));
      },
    );
  }
});
