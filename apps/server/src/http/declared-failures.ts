// Every status an endpoint can answer is in its response schema, so the OpenAPI document tells the
// truth and the fuzz test can hold each answer to it. The failures that follow from a route's shape
// are added here, once; a route declares only the ones its own rules add (409, 429, 502...).
import type { FastifyInstance, RouteOptions } from 'fastify';
import { apiDocsPath, apiPrefix } from '@mooz/contract/api-routes';
import { errorEnvelope } from '@mooz/contract/envelope';
import { authenticate, permissionChecks } from './authenticate';

type Schema = { body?: unknown; params?: unknown; querystring?: unknown; response?: Record<string | number, unknown> };

function failuresOf(route: RouteOptions): number[] {
  const schema = route.schema as Schema;
  const hooks = [route.onRequest ?? []].flat() as unknown[];
  const statuses = [500, 503];
  const takesInput = route.method !== 'GET' || schema.params !== undefined || schema.querystring !== undefined;
  if (takesInput) statuses.push(400);
  // A body may be too large or of a type we do not read.
  if (route.method !== 'GET') statuses.push(413, 415);
  if (hooks.includes(authenticate)) statuses.push(401);
  if (hooks.some((hook) => permissionChecks.has(hook as object))) statuses.push(403);
  if (schema.params !== undefined) statuses.push(404);
  return statuses;
}

/** Routes of the API as registered, for the fuzz test and anything else that walks the API. */
type ApiRoute = Pick<RouteOptions, 'method' | 'url' | 'schema' | 'onRequest'>;

declare module 'fastify' {
  interface FastifyInstance {
    apiRoutes: ApiRoute[];
  }
}

export function declareFailures(app: FastifyInstance) {
  const routes: ApiRoute[] = [];
  app.decorate('apiRoutes', routes);
  app.addHook('onRoute', (route) => {
    if (!route.url.startsWith(apiPrefix) || route.url.startsWith(apiDocsPath) || !route.schema) return;
    // HEAD answers a GET's headers without a body: nothing to list, whether alone or beside GET.
    const methods = [route.method].flat().filter((method) => method !== 'HEAD');
    if (!methods.length) return;
    const schema = route.schema as Schema;
    const response = (schema.response ??= {});
    for (const status of failuresOf(route)) response[status] ??= errorEnvelope;
    routes.push({ ...route, method: methods.length === 1 ? methods[0]! : methods });
  });
}
