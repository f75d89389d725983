// Invalid variants of valid requests for the fuzz test: one thing broken at a time (a field dropped,
// a wrong type, an edge number, hostile text), so a refusal can be held to the schema that should refuse it.
import fc from 'fast-check';
import { accepts, defOf, formatPath, zodArbitrary, type AnySchema, type ArbitraryOptions, type Path } from './zod-arbitrary';

// ---------------------------------------------------------------------------------------------------
// Mutations: near-valid values with one thing broken.

/** Numbers that break ranges and column types: past int4, negative, zero, huge, fractional, unsafe. */
const edgeNumbers = [
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
const hostileStrings = [
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
const controlCharacters = [
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

const hostileValue: fc.Arbitrary<unknown> = fc.oneof(
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

type Mutation =
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

const mutationArbitrary: fc.Arbitrary<Mutation> = fc.oneof(
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

interface Mutated {
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
function schemaAt(schema: AnySchema, path: Path): AnySchema | undefined {
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
