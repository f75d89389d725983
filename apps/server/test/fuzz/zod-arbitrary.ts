// fast-check arbitraries from zod 4 schemas (zod-fast-check stops at zod 3): `zodArbitrary` yields values
// that the schema accepts, `mutatedArbitrary` yields near-valid values with one thing broken (a field
// dropped, a wrong type, an out-of-range number, a control character, an unknown field, deep nesting...).
//
// The walker reads the schema's definition (`schema._zod.def`): its `type` and, for strings, numbers
// and arrays, its `checks`. What it cannot model exactly (refinements, several patterns on one string,
// overwrites such as trim) it approximates, and every node is finally filtered by the node's own
// `safeParse`, so a generated "valid" value is valid by construction.
import fc from 'fast-check';
import { z } from 'zod';

/** Any zod 4 schema, classic or core. */
export type AnySchema = z.core.$ZodType;
type Path = readonly (string | number)[];

export interface ArbitraryOptions {
  /**
   * Values worth trying at a node besides generated ones (ids of rows that exist, a real email...).
   * Called with the node's path (object keys and array indexes from the root) and schema; values the
   * node's schema refuses are dropped, so a hint may be broad.
   */
  hint?: (path: Path, schema: AnySchema) => readonly unknown[] | undefined;
  /** How deep the walk goes (recursive z.lazy schemas) before it takes the shortest way out. */
  maxDepth?: number;
}

// The parts of a definition the walker reads; zod's own types are more precise but differ per kind.
interface Def {
  type: string;
  checks?: { _zod: { def: CheckDef } }[];
  check?: string;
  coerce?: boolean;
  shape?: Record<string, AnySchema>;
  catchall?: AnySchema;
  element?: AnySchema;
  items?: AnySchema[];
  rest?: AnySchema | null;
  innerType?: AnySchema;
  options?: AnySchema[];
  in?: AnySchema;
  out?: AnySchema;
  left?: AnySchema;
  right?: AnySchema;
  keyType?: AnySchema;
  valueType?: AnySchema;
  values?: unknown[];
  entries?: Record<string, unknown>;
  getter?: () => AnySchema;
}

interface CheckDef {
  check: string;
  format?: string;
  pattern?: RegExp;
  minimum?: number;
  maximum?: number;
  length?: number;
  value?: number | bigint;
  inclusive?: boolean;
  includes?: string;
  prefix?: string;
  suffix?: string;
  offset?: boolean;
  local?: boolean;
  precision?: number | null;
}

const defOf = (schema: AnySchema) => schema._zod.def as unknown as Def;
const accepts = (schema: AnySchema, value: unknown) => z.safeParse(schema, value).success;

/** The definition's own check (a format schema such as z.email() is its own check) and its added ones. */
function checksOf(def: Def): CheckDef[] {
  const own = def.check ? [def as unknown as CheckDef] : [];
  return [...own, ...(def.checks ?? []).map((c) => c._zod.def)];
}

/** Values the schema accepts. */
export function zodArbitrary(schema: AnySchema, options: ArbitraryOptions = {}): fc.Arbitrary<unknown> {
  return walk(schema, [], options, 0);
}

function walk(schema: AnySchema, path: Path, options: ArbitraryOptions, depth: number): fc.Arbitrary<unknown> {
  const generated = build(schema, path, options, depth);
  const hinted = (options.hint?.(path, schema) ?? []).filter((value) => accepts(schema, value));
  if (!hinted.length) return generated;
  // Hinted values twice as often: a real id or token reaches code that no random one does.
  return fc.oneof({ weight: 1, arbitrary: generated }, { weight: 2, arbitrary: fc.constantFrom(...hinted) });
}

function build(schema: AnySchema, path: Path, options: ArbitraryOptions, depth: number): fc.Arbitrary<unknown> {
  const def = defOf(schema);
  const valid = (arb: fc.Arbitrary<unknown>) => arb.filter((value) => accepts(schema, value));
  const inner = (s: AnySchema, p: Path = path) => walk(s, p, options, depth + 1);
  // Past the depth limit (recursive schemas) take the shortest way out: no optional parts, shortest lists.
  const shallow = depth > (options.maxDepth ?? 8);
  switch (def.type) {
    case 'string':
      return valid(stringArbitrary(checksOf(def)));
    case 'number':
      return valid(numberArbitrary(checksOf(def)));
    case 'bigint':
      return valid(fc.bigInt({ min: -(2n ** 63n), max: 2n ** 63n - 1n }));
    case 'boolean':
      return fc.boolean();
    case 'null':
      return fc.constant(null);
    case 'undefined':
    case 'void':
      return fc.constant(undefined);
    case 'nan':
      return fc.constant(Number.NaN);
    case 'date':
      return valid(fc.date({ noInvalidDate: true }));
    case 'any':
    case 'unknown':
      return fc.jsonValue({ maxDepth: 2 });
    case 'literal':
      return fc.constantFrom(...(def.values ?? []));
    case 'enum':
      return fc.constantFrom(...enumValues(def.entries ?? {}));
    case 'template_literal':
      return valid(fc.stringMatching(new RegExp((schema._zod as unknown as { pattern: RegExp }).pattern)));
    case 'object': {
      const shape = def.shape ?? {};
      const model: Record<string, fc.Arbitrary<unknown>> = {};
      const requiredKeys: string[] = [];
      for (const [key, field] of Object.entries(shape)) {
        const optional = field._zod.optin === 'optional';
        if (optional && shallow) continue;
        // An optional field is either absent or present with a value; `undefined` adds nothing over absent.
        model[key] = optional
          ? walk(required(field), [...path, key], options, depth + 1)
          : inner(field, [...path, key]);
        if (!optional) requiredKeys.push(key);
      }
      // fc.record makes objects without a prototype; requests and tests expect plain ones.
      const record = fc.record(model, { requiredKeys }).map((o) => ({ ...o }));
      return def.checks?.length ? valid(record) : record;
    }
    case 'array': {
      const { min, max } = lengthBounds(checksOf(def));
      if (shallow && min === 0) return valid(fc.constant([]));
      const arb = fc.array(inner(def.element!, [...path, 0]), {
        minLength: min,
        maxLength: shallow ? min : Math.min(max, min + 4),
      });
      return valid(arb);
    }
    case 'tuple': {
      const items = (def.items ?? []).map((item, i) => inner(item, [...path, i]));
      const rest = def.rest ? fc.array(inner(def.rest, [...path, items.length]), { maxLength: 3 }) : fc.constant([]);
      return valid(fc.tuple(fc.tuple(...items), rest).map(([head, tail]) => [...head, ...tail]));
    }
    case 'record': {
      const key = inner(def.keyType!, [...path, '*key']);
      if (shallow) return valid(fc.constant({}));
      const value = inner(def.valueType!, [...path, '*']);
      return valid(
        fc.dictionary(key as fc.Arbitrary<string>, value, { maxKeys: shallow ? 0 : 4 }).map((o) => ({ ...o })),
      );
    }
    case 'optional':
      if (shallow) return fc.constant(undefined);
      return fc.option(inner(def.innerType!), { nil: undefined, freq: 4 });
    case 'nullable':
      if (shallow) return fc.constant(null);
      return fc.option(inner(def.innerType!), { nil: null, freq: 4 });
    case 'default':
    case 'prefault':
      if (shallow) return fc.constant(undefined);
      // Absent takes the default; present must be valid on its own.
      return fc.option(inner(def.innerType!), { nil: undefined, freq: 3 });
    case 'nonoptional':
      return valid(inner(def.innerType!));
    case 'catch':
    case 'readonly':
    case 'success':
      return valid(inner(def.innerType!));
    case 'union':
      return valid(fc.oneof(...(def.options ?? []).map((option) => inner(option))));
    case 'intersection':
      return valid(
        fc
          .tuple(inner(def.left!), inner(def.right!))
          .map(([a, b]) => (a && b && typeof a === 'object' && typeof b === 'object' ? { ...a, ...b } : a)),
      );
    case 'pipe': {
      // A pipe accepts what `in` accepts and `out` then accepts. When `out` is a transform, anything `in`
      // accepts goes; otherwise `out` usually states the tighter rule (string → z.email()), so start there.
      const source = defOf(def.out!).type === 'transform' || !sameKind(def.in!, def.out!) ? def.in! : def.out!;
      return valid(inner(source));
    }
    case 'transform':
    case 'custom':
      return valid(fc.jsonValue({ maxDepth: 2 }));
    case 'lazy':
      return inner(def.getter!());
    case 'never':
      throw new Error(`zodArbitrary: nothing is valid for z.never() at ${formatPath(path)}`);
    default:
      throw new Error(`zodArbitrary: unsupported zod type "${def.type}" at ${formatPath(path)}`);
  }
}

/** The field without its optional/default wrapper, for a key that is either absent or valid. */
function required(schema: AnySchema): AnySchema {
  const def = defOf(schema);
  return def.type === 'optional' ? def.innerType! : schema;
}

function sameKind(a: AnySchema, b: AnySchema) {
  const kind = (s: AnySchema): string => {
    const def = defOf(s);
    return ['optional', 'nullable', 'default', 'readonly', 'catch'].includes(def.type)
      ? kind(def.innerType!)
      : def.type;
  };
  return kind(a) === kind(b);
}

function enumValues(entries: Record<string, unknown>) {
  // A numeric TypeScript enum maps names to numbers and numbers back to names; zod keeps the values.
  return Object.entries(entries)
    .filter(([key, value]) => typeof value !== 'string' || !/^\d+$/.test(key) || !(value in entries))
    .map(([, value]) => value);
}

export const formatPath = (path: Path) =>
  '$' +
  path
    .map((part) =>
      typeof part === 'number'
        ? `[${part}]`
        : /^[A-Za-z_$][\w$]*$/.test(part)
          ? `.${part}`
          : `[${JSON.stringify(part)}]`,
    )
    .join('');

// ---------------------------------------------------------------------------------------------------
// Strings

function lengthBounds(checks: CheckDef[]) {
  let min = 0;
  let max = Number.POSITIVE_INFINITY;
  for (const c of checks) {
    if (c.check === 'min_length') min = Math.max(min, c.minimum!);
    if (c.check === 'max_length') max = Math.min(max, c.maximum!);
    if (c.check === 'length_equals') min = max = c.length!;
  }
  return { min, max };
}

// The most specific format decides how the string is built; the node's safeParse checks the rest.
const formatPriority = ['email', 'url', 'datetime', 'date', 'time', 'duration', 'uuid', 'guid', 'regex'];

function stringArbitrary(checks: CheckDef[]): fc.Arbitrary<string> {
  const { min, max } = lengthBounds(checks);
  const formats = checks.filter((c) => c.check === 'string_format');
  const rank = (c: CheckDef) => {
    const i = formatPriority.indexOf(c.format!);
    return i === -1 ? formatPriority.length : i;
  };
  const shaping = new Set(['lowercase', 'uppercase', 'includes', 'starts_with', 'ends_with']);
  const main = formats.filter((c) => !shaping.has(c.format!)).sort((a, b) => rank(a) - rank(b))[0];
  let base = main ? formatArbitrary(main, min, max) : plainText(min, max);
  for (const c of formats) {
    if (c.format === 'lowercase') base = base.map((s) => s.toLowerCase());
    if (c.format === 'uppercase') base = base.map((s) => s.toUpperCase());
    if (c.format === 'starts_with') base = base.map((s) => c.prefix + s);
    if (c.format === 'ends_with') base = base.map((s) => s + c.suffix);
    if (c.format === 'includes') base = base.map((s) => s + c.includes);
  }
  return base;
}

function plainText(min: number, max: number): fc.Arbitrary<string> {
  const maxLength = Math.min(max, min + 40);
  return fc.oneof(
    { weight: 4, arbitrary: fc.string({ minLength: min, maxLength }) },
    { weight: 2, arbitrary: fc.string({ unit: 'grapheme', minLength: min, maxLength }) },
    { weight: 1, arbitrary: fc.string({ unit: 'binary', minLength: min, maxLength }) },
    // The longest text the schema allows, where it is bounded.
    ...(Number.isFinite(max) && max <= 100_000 ? [{ weight: 1, arbitrary: fc.constant('x'.repeat(max)) }] : []),
  );
}

const pad = (n: number, width = 2) => String(n).padStart(width, '0');

const simpleEmail = fc
  .tuple(
    fc.stringMatching(/^[a-z0-9]{1,12}$/),
    fc.option(fc.stringMatching(/^[a-z0-9_+-]{1,6}$/), { nil: undefined }),
    fc.array(fc.stringMatching(/^[a-z0-9]([a-z0-9-]{0,8}[a-z0-9])?$/), { minLength: 1, maxLength: 2 }),
    fc.stringMatching(/^[a-z]{2,6}$/),
    fc.boolean(),
  )
  .map(([user, tag, labels, tld, upper]) => {
    const email = `${user}${tag ? `.${tag}` : ''}@${labels.join('.')}.${tld}`;
    return upper ? email.toUpperCase() : email;
  });

const calendarDate = fc.date({
  min: new Date('1900-01-01T00:00:00Z'),
  max: new Date('2199-12-31T00:00:00Z'),
  noInvalidDate: true,
});

function datetimeArbitrary(c: CheckDef): fc.Arbitrary<string> {
  const precision = c.precision ?? null;
  const fraction =
    precision === null
      ? fc.option(
          fc.integer({ min: 0, max: 999_999 }).map((n) => `.${n}`),
          { nil: '' },
        )
      : fc.constant('');
  const offset = c.local
    ? fc.constant('')
    : c.offset
      ? fc.oneof(
          fc.constant('Z'),
          fc
            .tuple(fc.constantFrom('+', '-'), fc.integer({ min: 0, max: 23 }), fc.integer({ min: 0, max: 59 }))
            .map(([s, h, m]) => `${s}${pad(h)}:${pad(m)}`),
        )
      : fc.constant('Z');
  return fc.tuple(calendarDate, fraction, offset).map(([d, frac, off]) => {
    const iso = d.toISOString(); // YYYY-MM-DDTHH:MM:SS.sssZ
    const minutes = iso.slice(0, 16);
    if (precision === -1) return `${minutes}${off}`;
    const seconds = iso.slice(0, 19);
    if (precision === null) return `${seconds}${frac}${off}`;
    if (precision === 0) return `${seconds}${off}`;
    return `${seconds}.${iso.slice(20, 23).padEnd(precision, '0').slice(0, precision)}${off}`;
  });
}

function formatArbitrary(c: CheckDef, min: number, max: number): fc.Arbitrary<string> {
  switch (c.format) {
    case 'email':
      return fc.oneof({ weight: 3, arbitrary: simpleEmail }, { weight: 1, arbitrary: fc.stringMatching(c.pattern!) });
    case 'url':
      return fc.webUrl({ withQueryParameters: true, withFragments: true });
    case 'date':
      return calendarDate.map((d) => d.toISOString().slice(0, 10));
    case 'datetime':
      return datetimeArbitrary(c);
    case 'time':
      return fc
        .tuple(fc.integer({ min: 0, max: 23 }), fc.integer({ min: 0, max: 59 }), fc.integer({ min: 0, max: 59 }))
        .map(([h, m, s]) => (c.precision === -1 ? `${pad(h)}:${pad(m)}` : `${pad(h)}:${pad(m)}:${pad(s)}`));
    case 'uuid':
    case 'guid':
      return fc.uuid();
    default:
      return c.pattern ? patternArbitrary(c.pattern, min, max) : plainText(min, max);
  }
}

/** Strings matching a pattern; fast-check cannot build every pattern (lookaheads), so those are filtered. */
function patternArbitrary(pattern: RegExp, min: number, max: number): fc.Arbitrary<string> {
  const test = (s: string) => {
    pattern.lastIndex = 0;
    return pattern.test(s);
  };
  try {
    return fc.stringMatching(pattern);
  } catch {
    return plainText(min, max).filter(test);
  }
}

// ---------------------------------------------------------------------------------------------------
// Numbers

const formatBounds: Record<string, [number, number, boolean]> = {
  safeint: [Number.MIN_SAFE_INTEGER, Number.MAX_SAFE_INTEGER, true],
  int32: [-(2 ** 31), 2 ** 31 - 1, true],
  uint32: [0, 2 ** 32 - 1, true],
  float32: [-3.4028234663852886e38, 3.4028234663852886e38, false],
  float64: [-Number.MAX_VALUE, Number.MAX_VALUE, false],
};

function numberArbitrary(checks: CheckDef[]): fc.Arbitrary<number> {
  let lo = Number.NEGATIVE_INFINITY;
  let hi = Number.POSITIVE_INFINITY;
  let loIncluded = true;
  let hiIncluded = true;
  let int = false;
  let step: number | undefined;
  for (const c of checks) {
    if (c.check === 'number_format') {
      const [a, b, isInt] = formatBounds[c.format!] ?? [lo, hi, false];
      lo = Math.max(lo, a);
      hi = Math.min(hi, b);
      int ||= isInt;
    }
    if (c.check === 'greater_than' && Number(c.value) >= lo) {
      lo = Number(c.value);
      loIncluded = c.inclusive ?? false;
    }
    if (c.check === 'less_than' && Number(c.value) <= hi) {
      hi = Number(c.value);
      hiIncluded = c.inclusive ?? false;
    }
    if (c.check === 'multiple_of') step = Number(c.value);
  }
  if (int || (step !== undefined && Number.isInteger(step))) {
    const min = Math.max(loIncluded ? Math.ceil(lo) : Math.floor(lo) + 1, Number.MIN_SAFE_INTEGER);
    const max = Math.min(hiIncluded ? Math.floor(hi) : Math.ceil(hi) - 1, Number.MAX_SAFE_INTEGER);
    if (step !== undefined) {
      const first = Math.ceil(min / step);
      const last = Math.floor(max / step);
      return fc.integer({ min: Math.max(first, -(2 ** 40)), max: Math.min(last, 2 ** 40) }).map((k) => k * step);
    }
    // Mostly small numbers and the edges, now and then anywhere in range.
    const small = [Math.max(min, -100), Math.min(max, 1000)] as const;
    return fc.oneof(
      ...(small[0] <= small[1] ? [{ weight: 4, arbitrary: fc.integer({ min: small[0], max: small[1] }) }] : []),
      { weight: 1, arbitrary: fc.constantFrom(min, max) },
      { weight: 1, arbitrary: fc.integer({ min, max }) },
    );
  }
  return fc.double({
    ...(Number.isFinite(lo) ? { min: lo, minExcluded: !loIncluded } : {}),
    ...(Number.isFinite(hi) ? { max: hi, maxExcluded: !hiIncluded } : {}),
    noNaN: true,
    noDefaultInfinity: true,
  });
}

// ---------------------------------------------------------------------------------------------------
// Mutations: near-valid values with one thing broken.

/** Numbers that break ranges and column types: past int4, negative, zero, huge, fractional, unsafe. */
export const edgeNumbers = [
  0,
  -1,
  1.5,
  -0,
  2147483647,
  2147483648,
  -2147483648,
  -2147483649,
  4294967296,
  9007199254740991,
  2 ** 53 + 2,
  1e308,
  -1e308,
  5e-324,
] as const;

/** Text that breaks naive storage and display: NUL and other control characters, lone surrogates... */
export const hostileStrings = [
  '',
  ' ',
  '\u0000',
  'a\u0000b',
  '\u0001\u0002\u0008',
  '\u001b[31m',
  '\u007f',
  '\r\n',
  '\t',
  '\u2028',
  '\ud800',
  'x\udfffy',
  '\u202e',
  '\ufeff',
  'NaN',
  'Infinity',
  '-Infinity',
  '1e308',
  '2147483648',
  '-1',
  '0x10',
  'null',
  'true',
  '[]',
  '{}',
  "' OR '1'='1",
  '"; drop table users; --',
  '<script>alert(1)</script>',
  '../../etc/passwd',
  '%00',
  '%s%n',
  '𝔘𝔫𝔦𝔠𝔬𝔡𝔢 🎉',
] as const;

/** Characters to slip into an otherwise valid string. */
export const controlCharacters = [
  '\u0000',
  '\u0001',
  '\u0008',
  '\u000b',
  '\u000c',
  '\u001f',
  '\u007f',
  '\ud800',
  '\udfff',
  '\n',
  '\r',
  '\t',
] as const;

const deepNest = (depth: number) => {
  let value: unknown = {};
  for (let i = 0; i < depth; i++) value = { a: value };
  return value;
};

export const hostileValue: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom<unknown>(...edgeNumbers) },
  { weight: 4, arbitrary: fc.constantFrom<unknown>(...hostileStrings) },
  { weight: 2, arbitrary: fc.constantFrom<unknown>(null, true, false, [], {}, [null], [[]], { '': null }) },
  // Very long text: past every field limit, and (rarely) past the body limit.
  { weight: 1, arbitrary: fc.constantFrom('a'.repeat(10_000), 'é'.repeat(100_000)) },
  { weight: 1, arbitrary: fc.constant('z'.repeat(1_100_000)) },
  { weight: 1, arbitrary: fc.integer({ min: 1, max: 1_000 }).map(deepNest) },
  { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 20 }) },
  // An own `__proto__` key, as a JSON body can carry one.
  { weight: 1, arbitrary: fc.constant(JSON.parse('{"__proto__": {"polluted": true}}')) },
  {
    weight: 1,
    arbitrary: fc.array(fc.constantFrom<unknown>(...edgeNumbers, ...hostileStrings), { minLength: 1, maxLength: 3 }),
  },
);

export type Mutation =
  | { kind: 'drop'; pick: number }
  | { kind: 'replace'; pick: number; value: unknown }
  | { kind: 'inject'; pick: number; text: string; at: number }
  | { kind: 'extra'; pick: number; key: string; value: unknown }
  | { kind: 'root'; value: unknown };

// NUL first: PostgreSQL cannot store it in text, so it is the character most likely to become a 500.
const injectedText = fc.oneof(
  { weight: 4, arbitrary: fc.constant('\u0000') },
  { weight: 3, arbitrary: fc.constantFrom(...controlCharacters) },
  { weight: 2, arbitrary: fc.constantFrom(...hostileStrings) },
);

export const mutationArbitrary: fc.Arbitrary<Mutation> = fc.oneof(
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('drop' as const), pick: fc.nat() }) },
  { weight: 5, arbitrary: fc.record({ kind: fc.constant('replace' as const), pick: fc.nat(), value: hostileValue }) },
  {
    weight: 6,
    arbitrary: fc.record({ kind: fc.constant('inject' as const), pick: fc.nat(), text: injectedText, at: fc.nat() }),
  },
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant('extra' as const),
      pick: fc.nat(),
      key: fc.constantFrom(
        'extra',
        'id',
        'user_type',
        'is_admin',
        'teacher_id',
        'status',
        'published',
        '__proto__',
        'constructor',
        '',
      ),
      value: fc.oneof(hostileValue, fc.constantFrom<unknown>(1, 'admin', true)),
    }),
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('root' as const), value: hostileValue }) },
);

export interface Mutated {
  value: unknown;
  /** What was broken, for the failure message. */
  mutation: string;
}

/** Near-valid values: a valid value with one mutation applied. */
export function mutatedArbitrary(schema: AnySchema, options: ArbitraryOptions = {}): fc.Arbitrary<Mutated> {
  return fc
    .tuple(zodArbitrary(schema, options), mutationArbitrary)
    .map(([valid, mutation]) => applyMutation(valid, mutation, schema));
}

const wrappers = new Set([
  'optional',
  'nullable',
  'default',
  'prefault',
  'readonly',
  'catch',
  'nonoptional',
  'lazy',
  'pipe',
]);

function unwrap(schema: AnySchema): AnySchema {
  let current = schema;
  for (let i = 0; i < 20 && wrappers.has(defOf(current).type); i++) {
    const def = defOf(current);
    current = def.type === 'lazy' ? def.getter!() : def.type === 'pipe' ? def.in! : def.innerType!;
  }
  return current;
}

/** The schema of the node at `path` in a value of `schema`, when the path leads somewhere it knows. */
export function schemaAt(schema: AnySchema, path: Path): AnySchema | undefined {
  let current: AnySchema | undefined = schema;
  for (const key of path) {
    if (!current) return undefined;
    const def = defOf(unwrap(current));
    if (def.type === 'object') current = def.shape?.[key as string];
    else if (def.type === 'array') current = def.element;
    else if (def.type === 'tuple') current = def.items?.[key as number] ?? def.rest ?? undefined;
    else if (def.type === 'record') current = def.valueType;
    else if (def.type === 'union') current = def.options?.map((o) => schemaAt(o, [key])).find(Boolean);
    else return undefined;
  }
  return current;
}

/** Text a person types (a name, a title, a description), as opposed to a date, a code or an email. */
const isFreeText = (schema: AnySchema | undefined) => schema !== undefined && accepts(schema, 'Plain words');

type Node = { path: Path; value: unknown };

function nodesOf(value: unknown, path: Path = [], out: Node[] = []): Node[] {
  out.push({ path, value });
  if (path.length < 8 && value && typeof value === 'object') {
    for (const [key, child] of Object.entries(value))
      nodesOf(child, [...path, Array.isArray(value) ? Number(key) : key], out);
  }
  return out;
}

function setOwn(target: Record<string | number, unknown>, key: string | number, value: unknown) {
  // defineProperty, so a key such as "__proto__" becomes an own property, as JSON.parse would make it.
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
}

/** `valid` with one mutation; with the schema, characters go into free text (names, titles) twice as often. */
export function applyMutation(valid: unknown, mutation: Mutation, schema?: AnySchema): Mutated {
  const root = valid === undefined ? undefined : structuredClone(valid);
  if (mutation.kind === 'root')
    return { value: mutation.value, mutation: `whole value replaced by ${preview(mutation.value)}` };
  const nodes = nodesOf(root);
  const choose = (candidates: Node[]) => candidates[mutation.pick % candidates.length];
  const parentOf = (path: Path) =>
    nodesOf(root).find((n) => n.path.length === path.length - 1 && path.slice(0, -1).every((p, i) => n.path[i] === p))!
      .value as Record<string | number, unknown>;
  const replaceAt = (path: Path, value: unknown): unknown => {
    if (!path.length) return value;
    setOwn(parentOf(path), path.at(-1)!, value);
    return root;
  };
  switch (mutation.kind) {
    case 'drop': {
      const node = choose(nodes.filter((n) => n.path.length > 0));
      if (!node) return { value: undefined, mutation: 'value left out' };
      const parent = parentOf(node.path);
      const key = node.path.at(-1)!;
      if (Array.isArray(parent)) parent.splice(Number(key), 1);
      else delete parent[key];
      return { value: root, mutation: `${formatPath(node.path)} dropped` };
    }
    case 'replace': {
      const node = choose(nodes)!;
      return {
        value: replaceAt(node.path, mutation.value),
        mutation: `${formatPath(node.path)} replaced by ${preview(mutation.value)}`,
      };
    }
    case 'inject': {
      const strings = nodes.filter((n) => typeof n.value === 'string');
      // Free text is where a stray character reaches storage; a date or a code with one is refused anyway.
      const freeText = schema ? strings.filter((n) => isFreeText(schemaAt(schema, n.path))) : [];
      const node = choose(strings.length ? [...freeText, ...freeText, ...strings] : nodes)!;
      const text = typeof node.value === 'string' ? node.value : '';
      const at = mutation.at % (text.length + 1);
      const next = text.slice(0, at) + mutation.text + text.slice(at);
      return {
        value: replaceAt(node.path, next),
        mutation: `${preview(mutation.text)} put into ${formatPath(node.path)} at ${at}`,
      };
    }
    case 'extra': {
      const objects = nodes.filter((n) => n.value && typeof n.value === 'object' && !Array.isArray(n.value));
      const node = choose(objects);
      if (!node)
        return {
          value: { [mutation.key]: mutation.value },
          mutation: `whole value replaced by an object with ${JSON.stringify(mutation.key)}`,
        };
      setOwn(node.value as Record<string, unknown>, mutation.key, mutation.value);
      return {
        value: root,
        mutation: `unknown field ${JSON.stringify(mutation.key)} = ${preview(mutation.value)} added at ${formatPath(node.path)}`,
      };
    }
  }
}

/** A short, unambiguous rendering of a value for failure messages (long text is elided, escapes shown). */
export function preview(value: unknown, limit = 300): string {
  let text: string;
  try {
    text =
      JSON.stringify(value, (_key, v) =>
        typeof v === 'string' && v.length > 60 ? `${v.slice(0, 20)}…(${v.length} chars)` : v,
      ) ?? String(value);
  } catch {
    text = String(value);
  }
  if (typeof value === 'number' && !Number.isFinite(value)) text = String(value);
  if (Object.is(value, -0)) text = '-0';
  const nested = /^(\{"a":)+/.exec(text);
  if (nested && nested[0].length > 50) return `{"a":{"a":…} nested ${nested[0].length / 5} deep`;
  return text.length > limit ? `${text.slice(0, limit)}…(${text.length} chars)` : text;
}
