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
import { numberArbitrary, type CheckDef } from './zod-numbers';

/** Any zod 4 schema, classic or core. */
export type AnySchema = z.core.$ZodType;
export type Path = readonly (string | number)[];

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


export const defOf = (schema: AnySchema) => schema._zod.def as unknown as Def;
export const accepts = (schema: AnySchema, value: unknown) => z.safeParse(schema, value).success;

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

/** The examples a schema declares (`.meta({examples})`) that it accepts. */
function examplesOf(schema: AnySchema): unknown[] {
  const examples = (z.globalRegistry.get(schema as z.ZodType) as { examples?: unknown } | undefined)?.examples;
  return Array.isArray(examples) ? examples.filter((value) => accepts(schema, value)) : [];
}

function build(schema: AnySchema, path: Path, options: ArbitraryOptions, depth: number): fc.Arbitrary<unknown> {
  // A schema that names its examples is met by refinements a random value almost never meets (a time
  // zone the runtime knows): its valid values are its examples.
  const examples = examplesOf(schema);
  if (examples.length) return fc.constantFrom(...examples);
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
