// Requests to one route, generated from the route's own schemas: params, querystring and body, each
// either valid (from zodArbitrary, with the world's real ids, emails and codes mixed in) or mutated,
// sent with one of the identities, mostly as JSON and now and then malformed or in a type the API does
// not take. A route without a body schema that takes a body (the payments webhook) gets raw bytes or
// JSON events, signed correctly, wrongly or not at all.
import fc from 'fast-check';
import { z } from 'zod';
import type { InjectOptions } from 'fastify';
import { webhookSignature } from '../../src/modules/payments/signatures';
import { schemaOf, type ApiRoute } from './routes';
import { zodArbitrary, type AnySchema, type ArbitraryOptions } from './zod-arbitrary';
import { mutatedArbitrary, preview } from './zod-mutations';
import { identityNames, type IdentityName, type World } from './world';

export type Encoding =
  'json' | 'malformed-json' | 'text/plain' | 'form' | 'octet-stream' | 'no-content-type' | 'utf-16';

export interface Part {
  value: unknown;
  /** What was broken, or undefined for a valid value. */
  mutation?: string;
}

export interface FuzzRequest {
  route: ApiRoute;
  identity: IdentityName;
  /** Which of the bad tokens, for `bad-token`. */
  tokenVariant: number;
  params?: Part;
  query?: Part;
  body?: Part;
  encoding: Encoding;
  malformed: string;
  /** Raw body and headers for a route that reads its body raw. */
  raw?: { bytes: Buffer; contentType?: string; signature?: string | string[]; note: string };
}

const methodsWithBody = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

const malformedJson = [
  '{',
  '{"a":1,}',
  'nul',
  '\u0000',
  '{"a":1}garbage',
  '',
  '[',
  '{"a":"\\ud800"}',
  '{"a":01}',
  "{'a':1}",
  '\ufeff{}',
];

function hintsFor(world: World): ArbitraryOptions['hint'] {
  return (path) => {
    if (path.length === 0) return world.rootBodies;
    const key = [...path].reverse().find((p): p is string => typeof p === 'string');
    return key === undefined ? undefined : world.pools[key];
  };
}

/** Valid most of the time for params (so requests reach the handler), mutated most of the time for bodies. */
function partArbitrary(
  schema: AnySchema,
  options: ArbitraryOptions,
  validWeight: number,
  mutatedWeight: number,
): fc.Arbitrary<Part> {
  return fc.oneof(
    { weight: validWeight, arbitrary: zodArbitrary(schema, options).map((value) => ({ value })) },
    {
      weight: mutatedWeight,
      arbitrary: mutatedArbitrary(schema, options).map((m) => ({ value: m.value, mutation: m.mutation })),
    },
  );
}

// Signed-in callers three times as often as the others, so that most requests get past authentication.
const identityArbitrary: fc.Arbitrary<IdentityName> = fc.oneof(
  ...identityNames.map((name) => ({
    weight: ['student', 'teacher', 'admin'].includes(name) ? 3 : 1,
    arbitrary: fc.constant(name),
  })),
);

// The payments webhook's events, as far as the server reads them.
const webhookEvent = z.object({
  event: z.enum(['payment.captured', 'order.paid', 'payment.failed', 'refund.created']),
  payload: z.object({
    payment: z
      .object({
        entity: z
          .object({ id: z.string(), order_id: z.string(), amount: z.number().int(), currency: z.string() })
          .partial(),
      })
      .optional(),
    order: z
      .object({ entity: z.object({ id: z.string(), amount_paid: z.number().int(), currency: z.string() }).partial() })
      .optional(),
  }),
});

function rawBodyArbitrary(world: World) {
  const secret = world.t.config.payments.webhookSecret;
  const orderIds = world.orders.map((o) => o.order_id);
  const hint: ArbitraryOptions['hint'] = (path) => {
    const key = path.at(-1);
    if (key === 'order_id' || (key === 'id' && path.includes('order'))) return orderIds;
    if (key === 'id') return ['pay_webhook_1', 'pay_fuzz_1'];
    if (key === 'amount' || key === 'amount_paid') return world.orders.map((o) => o.amount);
    if (key === 'currency') return world.orders.map((o) => o.currency);
    return undefined;
  };
  const eventJson = fc.oneof(
    zodArbitrary(webhookEvent, { hint }).map((v) => ({ text: JSON.stringify(v), note: 'a payment event' })),
    mutatedArbitrary(webhookEvent, { hint }).map((m) => ({
      text: JSON.stringify(m.value) ?? '',
      note: `a payment event, ${m.mutation}`,
    })),
  );
  const bytes = fc.oneof(
    { weight: 3, arbitrary: eventJson.map(({ text, note }) => ({ bytes: Buffer.from(text), note })) },
    {
      weight: 1,
      arbitrary: fc.uint8Array({ maxLength: 256 }).map((b) => ({ bytes: Buffer.from(b), note: 'random bytes' })),
    },
    {
      weight: 1,
      arbitrary: fc
        .jsonValue({ maxDepth: 3 })
        .map((v) => ({ bytes: Buffer.from(JSON.stringify(v)), note: 'random JSON' })),
    },
    {
      weight: 1,
      arbitrary: fc.constantFrom(...malformedJson).map((s) => ({ bytes: Buffer.from(s), note: 'malformed JSON' })),
    },
    {
      weight: 1,
      arbitrary: fc.constant({ bytes: Buffer.alloc(300 * 1024, 0x20), note: 'past the webhook body limit' }),
    },
  );
  const signature = fc.constantFrom(
    'valid',
    'valid',
    'valid',
    'valid upper case',
    'valid with spaces',
    'none',
    'empty',
    'random hex',
    'other secret',
    'twice',
    'NUL',
  );
  const contentType = fc.constantFrom<string | undefined>(
    'application/json',
    'application/json',
    'application/json; charset=utf-8',
    'application/octet-stream',
    'text/plain',
    undefined,
    'multipart/form-data; boundary=x',
  );
  return fc
    .tuple(bytes, signature, contentType, fc.uint8Array({ minLength: 32, maxLength: 32 }))
    .map(([{ bytes, note }, how, type, random]) => {
      const good = webhookSignature(bytes, secret);
      const signatures: Record<string, string | string[] | undefined> = {
        valid: good,
        'valid upper case': good.toUpperCase(),
        'valid with spaces': ` ${good} `,
        none: undefined,
        empty: '',
        'random hex': Buffer.from(random).toString('hex'),
        'other secret': webhookSignature(bytes, 'another-webhook-secret'),
        twice: [good, good],
        NUL: `${good}\u0000`,
      };
      return { bytes, contentType: type, signature: signatures[how], note: `${note}, signature ${how}` };
    });
}

/** Every request to one route the fuzz may send. */
export function requestArbitrary(world: World, route: ApiRoute): fc.Arbitrary<FuzzRequest> {
  const schema = schemaOf(route);
  const hint = hintsFor(world);
  const hasBody = methodsWithBody.has(route.method);
  const none = fc.constant(undefined);
  const raw = hasBody && !schema.body ? rawBodyArbitrary(world) : none;
  return fc.record({
    route: fc.constant(route),
    identity: identityArbitrary,
    tokenVariant: fc.nat({ max: 20 }),
    params: schema.params ? partArbitrary(schema.params, { hint }, 3, 2) : none,
    query: schema.querystring ? partArbitrary(schema.querystring, { hint }, 3, 2) : none,
    body: hasBody && schema.body ? partArbitrary(schema.body, { hint }, 1, 2) : none,
    encoding: fc.oneof(
      { weight: 20, arbitrary: fc.constant<Encoding>('json') },
      {
        weight: 3,
        arbitrary: fc.constantFrom<Encoding>(
          'malformed-json',
          'text/plain',
          'form',
          'octet-stream',
          'no-content-type',
          'utf-16',
        ),
      },
    ),
    malformed: fc.constantFrom(...malformedJson),
    raw,
  }) as fc.Arbitrary<FuzzRequest>;
}

/** A path segment exactly as the server will decode it, or (lone surrogates) as near as bytes allow. */
function encodeSegment(value: string): { text: string; exact: boolean } {
  try {
    return { text: encodeURIComponent(value), exact: true };
  } catch {
    return {
      text: [...Buffer.from(value, 'utf8')].map((b) => `%${b.toString(16).padStart(2, '0')}`).join(''),
      exact: false,
    };
  }
}

const asText = (value: unknown) =>
  typeof value === 'string'
    ? value
    : value === undefined
      ? ''
      : typeof value === 'object' && value !== null
        ? JSON.stringify(value)
        : String(value);

interface Built {
  inject: InjectOptions;
  url: string;
  /** Params, querystring and body as the server will see them, when the request is sent exactly so. */
  seen: {
    params?: Record<string, string>;
    query?: Record<string, string | string[]>;
    body?: unknown;
    bodyExact: boolean;
    paramsExact: boolean;
  };
}

export function buildRequest(world: World, req: FuzzRequest): Built {
  const { route } = req;
  let paramsExact = true;
  const paramValues =
    req.params && typeof req.params.value === 'object' && req.params.value !== null && !Array.isArray(req.params.value)
      ? (req.params.value as Record<string, unknown>)
      : {};
  if (req.params && paramValues !== req.params.value) paramsExact = false;
  const seenParams: Record<string, string> = {};
  const path = route.url.replace(/:([A-Za-z0-9_]+)|\*/g, (match, name: string | undefined) => {
    const key = name ?? '*';
    const text = asText(paramValues[key]);
    const encoded = encodeSegment(text);
    if (!encoded.exact) paramsExact = false;
    seenParams[key] = text;
    return encoded.text;
  });
  let query: Record<string, string | string[]> | undefined;
  let search = '';
  if (req.query) {
    const q = req.query.value;
    if (q && typeof q === 'object' && !Array.isArray(q)) {
      const params = new URLSearchParams();
      query = {};
      for (const [key, value] of Object.entries(q)) {
        const values = Array.isArray(value) ? value.map(asText) : [asText(value)];
        for (const v of values) params.append(key, v);
        query[key] = values.length === 1 ? values[0]! : values;
      }
      search = params.toString();
    } else {
      search = encodeSegment(asText(q)).text;
    }
  }
  const url = search ? `${path}?${search}` : path;

  const headers: Record<string, string | string[]> = {};
  const authorization = world.authorization(req.identity, req.tokenVariant);
  if (authorization !== undefined) headers.authorization = authorization;

  const inject: InjectOptions = { method: route.method as InjectOptions['method'], url, headers };
  let body: unknown;
  let bodyExact = false;
  if (req.raw) {
    if (req.raw.contentType) headers['content-type'] = req.raw.contentType;
    if (req.raw.signature !== undefined) headers['x-razorpay-signature'] = req.raw.signature;
    inject.payload = req.raw.bytes;
  } else if (req.body) {
    const json = JSON.stringify(req.body.value);
    switch (req.encoding) {
      case 'json':
        if (json !== undefined) {
          headers['content-type'] = 'application/json';
          inject.payload = json;
          body = JSON.parse(json);
        }
        bodyExact = true;
        break;
      case 'malformed-json':
        headers['content-type'] = 'application/json';
        inject.payload = req.malformed;
        break;
      case 'text/plain':
        headers['content-type'] = 'text/plain';
        inject.payload = json ?? '';
        break;
      case 'form':
        headers['content-type'] = 'application/x-www-form-urlencoded';
        inject.payload = 'a=1&b=%00';
        break;
      case 'octet-stream':
        headers['content-type'] = 'application/octet-stream';
        inject.payload = Buffer.from(json ?? '');
        break;
      case 'no-content-type':
        inject.payload = Buffer.from(json ?? '');
        break;
      case 'utf-16':
        headers['content-type'] = 'application/json; charset=utf-16le';
        inject.payload = Buffer.from(json ?? '', 'utf16le');
        break;
    }
  }
  return {
    inject,
    url,
    seen: {
      params: route.url.includes(':') || route.url.includes('*') ? seenParams : undefined,
      query,
      body,
      bodyExact,
      paramsExact,
    },
  };
}

/** The request as a reader needs it to reproduce a failure. */
export function describeRequest(world: World, req: FuzzRequest, built: Built): string {
  const lines = [
    `${req.route.method} ${built.url.length > 200 ? `${built.url.slice(0, 120)}…(${built.url.length} chars)` : built.url}   as ${req.identity}${req.identity === 'bad-token' ? ` (${preview(world.authorization('bad-token', req.tokenVariant), 80)})` : ''}`,
  ];
  if (req.params)
    lines.push(`  params: ${preview(req.params.value)}${req.params.mutation ? `   [${req.params.mutation}]` : ''}`);
  if (req.query)
    lines.push(`  query: ${preview(req.query.value)}${req.query.mutation ? `   [${req.query.mutation}]` : ''}`);
  if (req.raw) {
    lines.push(
      `  content-type: ${req.raw.contentType ?? '(none)'}; x-razorpay-signature: ${preview(req.raw.signature)}`,
    );
    lines.push(`  raw body (${req.raw.note}): ${preview(req.raw.bytes.toString('utf8'), 1000)}`);
  } else if (req.body) {
    const type = (built.inject.headers as Record<string, string>)['content-type'] ?? '(none)';
    lines.push(`  content-type: ${type}${req.encoding === 'json' ? '' : ` (${req.encoding})`}`);
    if (req.encoding === 'malformed-json') lines.push(`  body: ${preview(req.malformed)}`);
    else lines.push(`  body: ${preview(req.body.value, 1000)}${req.body.mutation ? `   [${req.body.mutation}]` : ''}`);
  }
  return lines.join('\n');
}
