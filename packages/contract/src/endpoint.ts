// What an endpoint is: its method and path, what it takes (params, query, body), what it answers, and
// who may call it. The server registers its routes from these declarations (validation and the
// OpenAPI document follow from them) and the web client types its calls with them, so a path, a
// body or a response shape is written once, here.
import type { z } from 'zod';
import type { Action, Subject } from './permissions';

/** Anyone; any signed-in user; or a signed-in user whose permission rules allow the action on the subject. */
export type Access = 'public' | 'signedIn' | readonly [Action, Subject];

export interface Endpoint {
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE';
  /** Fastify style: `/api/courses/:id/`. */
  path: `/api/${string}`;
  summary: string;
  tags: readonly string[];
  access: Access;
  params?: z.ZodType;
  query?: z.ZodType;
  body?: z.ZodType;
  /** The success status and its response body. */
  status: 200 | 201;
  response: z.ZodType;
  /** Failure statuses this endpoint's own rules add (409, 429, 502…); those of its shape are added by the server. */
  failures?: readonly number[];
  /** A body limit other than the default (see httpLimits). */
  bodyLimit?: number;
  /**
   * A body that is not JSON, read by the handler itself as a stream: `multipart` (form-data with a
   * file) or `bytes` (raw bytes of `liveChunkContentType`). No `body` schema then.
   */
  bodyKind?: 'multipart' | 'bytes';
}

/** Declares an endpoint, keeping its literal types for the server and the client. */
export const endpoint = <const E extends Endpoint>(declaration: E): E => declaration;

type Infer<S> = S extends z.ZodType ? z.output<S> : undefined;
type Input<S> = S extends z.ZodType ? z.input<S> : undefined;

/** What a handler receives, after validation. */
export type ParamsOf<E extends Endpoint> = Infer<E['params']>;
export type QueryOf<E extends Endpoint> = Infer<E['query']>;
export type BodyOf<E extends Endpoint> = Infer<E['body']>;
/** What a client sends. */
export type ParamsInput<E extends Endpoint> = Input<E['params']>;
export type QueryInput<E extends Endpoint> = Input<E['query']>;
export type BodyInput<E extends Endpoint> = Input<E['body']>;
/** What a client receives on success. */
export type ResponseOf<E extends Endpoint> = z.output<E['response']>;

/** The concrete path of a call: `/api/courses/:id/` with `{id: 3}` is `/api/courses/3/`. */
export function pathOf(declaration: Pick<Endpoint, 'path'>, params?: Record<string, string | number>): string {
  return declaration.path.replace(/:([A-Za-z_]+)/g, (_, name: string) => {
    const value = params?.[name];
    if (value === undefined) throw new Error(`${declaration.path} needs the parameter ${name}`);
    return encodeURIComponent(String(value));
  });
}
