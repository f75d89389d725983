// Sends one fuzzed request and holds the answer to the properties:
//   1. no 5xx, ever;
//   2. every answer matches the schema its route declares for that status (an undeclared status fails
//      as "response outside declared schema"; a 5xx is reported once, under 1); an answer from no
//      route (the 404 handler, the router refusing a URL) is a 4xx in the error envelope;
//   3. a refused request (4xx, including 429) changes nothing in the database, but for the columns the
//      contract lets that route touch on refusal (see fingerprint.ts);
//   4. a request whose params, querystring or JSON body the route's own schema refuses is never
//      answered 2xx (the schema is the contract; a handler must not see what it refuses).
// Each problem has a signature (property, status and cause) so that one test can tell distinct
// failures apart and report each once, with its smallest example.
import type { IncomingMessage } from 'node:http';
import { z } from 'zod';
import { errorEnvelope } from '@mooz/contract/envelope';
import { differences, type GuardedColumn } from './fingerprint';
import { buildRequest, describeRequest, type FuzzRequest } from './requests';
import { schemaOf, type ApiRoute } from './routes';
import { formatPath, type AnySchema } from './zod-arbitrary';
import { preview } from './zod-mutations';
import type { World } from './world';

export type Property =
  'server error' | 'response outside declared schema' | 'state changed by a refused request' | 'invalid input accepted';

export interface Problem {
  property: Property;
  signature: string;
  detail: string;
}

interface Outcome {
  status: number;
  problems: Problem[];
  /** The request, the answer and the problems, ready to print. */
  report: string;
}

/** Columns a refused request to a route may change, by the contract (see fingerprint.ts). */
const allowedOnRefusal: Record<string, GuardedColumn[]> = {
  'POST /api/auth/verify-otp/': ['otp_codes.attempts', 'otp_codes.consumed_at'],
  'POST /api/auth/forgot-password/': ['otp_codes.attempts', 'otp_codes.consumed_at'],
  'POST /api/auth/token/refresh/': ['refresh_tokens.revoked_at'],
};

/** A text answer (content-type text/*) where the route declares a string, as a file download does. */
function isDeclaredText(schema: AnySchema, res: { body: string; headers: Record<string, unknown> }): boolean {
  return /^text\//.test(String(res.headers['content-type'] ?? '')) && z.safeParse(schema, res.body).success;
}

/** The declared response schema for a status: exact, then `4xx`-style, then `default`. */
function declaredSchema(route: ApiRoute, status: number): AnySchema | undefined {
  const response = schemaOf(route).response ?? {};
  return response[status] ?? response[`${Math.floor(status / 100)}xx`] ?? response.default;
}

const declaredStatuses = (route: ApiRoute) => Object.keys(schemaOf(route).response ?? {}).join(', ') || 'none';

function errorSignature(error: Error | undefined): string {
  if (!error) return 'no error reported';
  const cause = (error as { cause?: { code?: string; message?: string } }).cause;
  const code = (error as { code?: string }).code ?? cause?.code;
  const message = (cause?.message ?? error.message ?? '').split('\n')[0]!.replace(/\d+/g, 'N').slice(0, 80);
  return `${error.constructor?.name ?? 'Error'}${code ? ` ${code}` : ''}: ${message}`;
}

function describeError(error: Error | undefined): string {
  if (!error) return '';
  const cause = (error as { cause?: { code?: string; message?: string } }).cause;
  const code = (error as { code?: string }).code ?? cause?.code;
  return `  server error: ${error.constructor?.name ?? 'Error'}${code ? ` [${code}]` : ''}: ${error.message.split('\n')[0]!.slice(0, 300)}${
    cause?.message ? `\n    caused by: ${cause.message.split('\n')[0]!.slice(0, 300)}` : ''
  }`;
}

function firstIssues(error: z.ZodError, max = 3) {
  return error.issues
    .slice(0, max)
    .map((issue) => `${formatPath(issue.path as (string | number)[])}: ${issue.message}`)
    .join('; ');
}

export async function exercise(world: World, req: FuzzRequest): Promise<Outcome> {
  const built = buildRequest(world, req);
  // Work the app does after answering (the outbox) belongs to the request that caused it: let earlier
  // requests' work finish before, and this one's finish after.
  await world.settle();
  const before = await world.fingerprint.take();
  const res = await world.t.app.inject(built.inject);
  const raw = res.raw.req as IncomingMessage;
  const served = world.catalogue.servedBy(raw);
  const error = world.catalogue.errorOf(raw);
  const status = res.statusCode;
  const problems: Problem[] = [];
  const where = served ? served.key : `${req.route.method} (no route)`;

  // 1. No 5xx.
  if (status >= 500) {
    problems.push({
      property: 'server error',
      signature: `server error ${status} (${errorSignature(error)})`,
      detail: `status ${status}`,
    });
  }

  // 3. A refused request changes nothing (checked on 5xx too: a half-done write is worse).
  if (status >= 400) {
    await world.settle();
    const after = await world.fingerprint.take();
    const allowed = new Set<string>(served ? (allowedOnRefusal[served.key] ?? []) : []);
    const changed = differences(before, after).filter((key) => !allowed.has(key));
    if (changed.length) {
      problems.push({
        property: 'state changed by a refused request',
        signature: `state changed by a refused request (${status}): ${changed.join(', ')}`,
        detail: `changed: ${changed.join(', ')}`,
      });
    }
  }

  // 2. The answer matches the declared schema for its status.
  let json: unknown;
  let parsedJson = false;
  try {
    json = JSON.parse(res.body);
    parsedJson = true;
  } catch {
    json = undefined;
  }
  // A request no route took (the 404 handler, or the router refusing the URL itself: 414 for a path
  // parameter past Fastify's maxParamLength, 400 for a malformed one) must still be a 4xx in the envelope.
  const schema = served ? declaredSchema(served, status) : status >= 400 && status < 500 ? errorEnvelope : undefined;
  if (status >= 500) {
    // Already a failure of property 1; one signature per cause keeps it one finding.
  } else if (!schema) {
    problems.push({
      property: 'response outside declared schema',
      signature: `response outside declared schema: status ${status} not declared`,
      detail: served
        ? `status ${status} is not declared by ${served.key} (declared: ${declaredStatuses(served)})`
        : `no route answered, with ${status}`,
    });
  } else if (!parsedJson && isDeclaredText(schema, res)) {
    // A file the route declares as text (a CSV export): its body is the text itself.
  } else if (!parsedJson) {
    problems.push({
      property: 'response outside declared schema',
      signature: `response outside declared schema: status ${status} body is not JSON`,
      detail: `the body is not JSON (content-type ${res.headers['content-type'] ?? 'none'})`,
    });
  } else {
    const parsed = z.safeParse(schema, json);
    if (!parsed.success) {
      problems.push({
        property: 'response outside declared schema',
        signature: `response outside declared schema: status ${status} ${formatPath((parsed.error.issues[0]?.path ?? []) as (string | number)[])}`,
        detail: `the ${status} body does not match the declared schema: ${firstIssues(parsed.error)}`,
      });
    }
  }

  // 4. What the route's schema refuses is never accepted.
  if (status >= 200 && status < 300 && served === req.route) {
    const routeSchema = schemaOf(req.route);
    const refused: string[] = [];
    if (
      routeSchema.params &&
      built.seen.params &&
      built.seen.paramsExact &&
      !z.safeParse(routeSchema.params, built.seen.params).success
    )
      refused.push('params');
    if (routeSchema.querystring && built.seen.query && !z.safeParse(routeSchema.querystring, built.seen.query).success)
      refused.push('querystring');
    if (routeSchema.body && req.body && built.seen.bodyExact && !z.safeParse(routeSchema.body, built.seen.body).success)
      refused.push('body');
    if (refused.length) {
      problems.push({
        property: 'invalid input accepted',
        signature: `invalid input accepted (${status}): ${refused.join(', ')}`,
        detail: `the route's own schema refuses the ${refused.join(' and ')}, yet the answer is ${status}`,
      });
    }
  }

  const report = [
    describeRequest(world, req, built),
    `  → ${status} ${preview(parsedJson ? json : res.body, 600)}${served && served !== req.route ? `   (answered by ${where})` : ''}`,
    describeError(status >= 500 ? error : undefined),
    ...problems.map((p) => `  ✗ ${p.property}: ${p.detail}`),
  ]
    .filter(Boolean)
    .join('\n');
  return { status, problems, report };
}
