// Responses are written by fast-json-stringify (what Fastify itself uses for JSON Schemas) from the
// contract's zod schemas, each converted to JSON Schema once, when its route is registered, instead of
// being checked by zod and then JSON.stringify'd on every reply. For an answer that matches its schema
// the bytes are the same: the schema's properties, nothing undeclared, in the schema's order.
// The answers are still held to the zod schemas, by the API fuzz test (test/fuzz/oracle.ts), and the
// bytes to zod's, by serializer.test.ts.
import fastJson from 'fast-json-stringify';
import type { FastifySerializerCompiler } from 'fastify';
import { z } from 'zod';

type Serializer = (data: unknown) => string;
type JsonSchema = { [key: string]: unknown };

/**
 * fast-json-stringify writes an object's required properties before its optional ones; where that
 * would reorder an object of ours (an optional property declared before a required one), the object
 * loses its `required` list, so that properties come out in the declared order, as JSON.stringify of
 * zod's output wrote them.
 */
function keepDeclaredOrder(node: unknown): void {
  if (Array.isArray(node)) {
    for (const item of node) keepDeclaredOrder(item);
    return;
  }
  if (!node || typeof node !== 'object') return;
  const schema = node as JsonSchema;
  const properties = schema.properties as JsonSchema | undefined;
  const required = schema.required as string[] | undefined;
  if (properties && required) {
    const keys = Object.keys(properties);
    const firstOptional = keys.findIndex((key) => !required.includes(key));
    if (firstOptional !== -1 && keys.slice(firstOptional).some((key) => required.includes(key))) delete schema.required;
  }
  for (const value of Object.values(schema)) keepDeclaredOrder(value);
}

/** The JSON Schema fast-json-stringify is given for a zod schema: its output side, as draft-07. */
function responseJsonSchema(schema: z.ZodType): JsonSchema {
  const json = z.toJSONSchema(schema, { target: 'draft-7', io: 'output' }) as JsonSchema;
  keepDeclaredOrder(json);
  return json;
}

/**
 * Whether parsing can change a value (a transform, a pipe, a default, an overwrite such as trim()):
 * then JSON Schema cannot say what zod wrote, and the answer keeps going through zod.
 */
function changesValues(schema: z.core.$ZodType, seen = new Set<unknown>()): boolean {
  if (seen.has(schema)) return false;
  seen.add(schema);
  const def = schema._zod.def as unknown as { type: string; checks?: { _zod: { def: { check: string } } }[] } & Record<string, unknown>;
  if (['transform', 'pipe', 'default', 'prefault', 'catch', 'lazy', 'custom'].includes(def.type)) return true;
  if (def.checks?.some((check) => check._zod.def.check === 'overwrite')) return true;
  const inner = (value: unknown): boolean => {
    if (value instanceof z.core.$ZodType) return changesValues(value, seen);
    if (Array.isArray(value)) return value.some(inner);
    if (value && typeof value === 'object' && !(value instanceof RegExp)) return Object.values(value).some(inner);
    return false;
  };
  return Object.entries(def).some(([key, value]) => key !== 'checks' && inner(value));
}

/**
 * Serializers by schema, for the process: a serializer depends on nothing but its schema, and compiling
 * every route's again each time an app is built (every server test builds one) is slow.
 */
const serializers = new WeakMap<z.ZodType, Serializer>();

export function zodSerializer(schema: z.ZodType): Serializer {
  let serializer = serializers.get(schema);
  if (!serializer) {
    serializer = changesValues(schema)
      ? (data) => JSON.stringify(z.parse(schema, data))
      : (fastJson(responseJsonSchema(schema) as unknown as Parameters<typeof fastJson>[0]) as Serializer);
    serializers.set(schema, serializer);
  }
  return serializer;
}

export const serializerCompiler: FastifySerializerCompiler<z.ZodType> = ({ schema }) => zodSerializer(schema);
