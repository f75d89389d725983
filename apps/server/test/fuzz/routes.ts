// The API's routes as the app registers them, read without touching the app's source.
//
// buildApp() creates its Fastify instance and registers every route before it returns, so an onRoute hook
// added afterwards sees nothing. Fastify publishes each new instance on the diagnostics channel
// `fastify.initialization` (documented: "allows for plugins to be created before any routes are
// registered"), synchronously inside `Fastify()`: a subscriber there adds an onRoute hook before the
// first route, and every plugin context inherits it.
//
// The hook keeps the route options object itself, so the schema read later is the one the route was
// finally registered with (hooks added by the app after ours may still add declared statuses). It also
// prepends one onRequest hook that remembers which route served a request, and appends one onError hook
// that keeps the error behind a 5xx, both keyed by the request's raw IncomingMessage, which
// `inject()` hands back as `response.raw.req`. Neither changes what the app answers.
import diagnostics from 'node:diagnostics_channel';
import type { IncomingMessage } from 'node:http';
import type { FastifyInstance, FastifyRequest, RouteOptions } from 'fastify';
import type { AnySchema } from './zod-arbitrary';

export interface ApiRoute {
  /** "POST /api/courses/" */
  key: string;
  method: string;
  url: string;
  /** The registered route options; read `schema` lazily. */
  options: RouteOptions;
}

interface RouteSchema {
  body?: AnySchema;
  params?: AnySchema;
  querystring?: AnySchema;
  headers?: AnySchema;
  response?: Record<string, AnySchema>;
}

export const schemaOf = (route: ApiRoute) => (route.options.schema ?? {}) as RouteSchema;

export interface RouteCatalogue {
  routes: ApiRoute[];
  /** The route that served the request behind an inject() response, if any (none: the 404 handler). */
  servedBy(raw: IncomingMessage): ApiRoute | undefined;
  /** The error a route's handling threw for that request, if any. */
  errorOf(raw: IncomingMessage): Error | undefined;
}

const isApi = (url: string) => url.startsWith('/api/') && !url.startsWith('/api/docs');

const asArray = <T>(value: T | T[] | undefined): T[] =>
  value === undefined ? [] : Array.isArray(value) ? value : [value];

/** Runs `build` (which must create exactly the one app under test) and records that app's API routes. */
export async function withRouteCatalogue<T>(build: () => Promise<T>): Promise<{ built: T; catalogue: RouteCatalogue }> {
  const routes: ApiRoute[] = [];
  const served = new WeakMap<IncomingMessage, ApiRoute>();
  const errors = new WeakMap<IncomingMessage, Error>();
  let instances = 0;

  const onInit = (message: unknown) => {
    const { fastify } = message as { fastify: FastifyInstance };
    instances++;
    fastify.addHook('onRoute', (options) => {
      // HEAD routes are Fastify's copies of GET routes; their body is empty, so there is nothing to check.
      const methods = asArray(options.method).filter((m) => m !== 'HEAD');
      if (!isApi(options.url) || !methods.length) return;
      const entries = methods.map((method) => ({ key: `${method} ${options.url}`, method, url: options.url, options }));
      routes.push(...entries);
      const byMethod = new Map(entries.map((e) => [e.method, e]));
      const tag = async (request: FastifyRequest) => {
        const route = byMethod.get(request.method);
        if (route) served.set(request.raw, route);
      };
      const keepError = async (request: FastifyRequest, _reply: unknown, error: Error) => {
        errors.set(request.raw, error);
      };
      options.onRequest = [tag, ...asArray(options.onRequest)] as RouteOptions['onRequest'];
      options.onError = [...asArray(options.onError), keepError] as RouteOptions['onError'];
    });
  };

  diagnostics.subscribe('fastify.initialization', onInit);
  let built: T;
  try {
    built = await build();
  } finally {
    diagnostics.unsubscribe('fastify.initialization', onInit);
  }
  if (instances !== 1) throw new Error(`expected one Fastify instance while building the app, saw ${instances}`);
  return {
    built,
    catalogue: {
      routes,
      servedBy: (raw) => served.get(raw),
      errorOf: (raw) => errors.get(raw),
    },
  };
}
