// Registers a route from its contract declaration: the path, the schemas (validation, serialisation
// and the OpenAPI document), who may call it (checked before the body is read), the success status,
// and the API's security headers (http/security-headers.ts). A module's routes file is then only "this
// endpoint is answered by that service call".
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { BodyOf, Endpoint, ParamsOf, QueryOf, ResponseOf } from '@mooz/contract/endpoint';
import { errorEnvelope } from '@mooz/contract/envelope';
import { allow, authenticate } from './authenticate';
import { zodSerializer } from './serializer';
import { chosenEncoding, sharedBytes } from './shared-answer';
import { varyOn } from './vary';

/** The request as a handler sees it: validated params, query and body of its endpoint. */
type EndpointRequest<E extends Endpoint> = Omit<FastifyRequest, 'params' | 'query' | 'body'> & {
  params: ParamsOf<E>;
  query: QueryOf<E>;
  body: BodyOf<E>;
};

type Answer<E extends Endpoint> = ResponseOf<E> | FastifyReply;

export function route<E extends Endpoint>(
  app: FastifyInstance,
  declaration: E,
  handler: (request: EndpointRequest<E>, reply: FastifyReply) => Promise<Answer<E>> | Answer<E>,
): void {
  const { access } = declaration;
  // Compiled on the first shared answer (http/shared-answer.ts): the same serializer as the route's own.
  let serialize: ((data: unknown) => string) | undefined;
  const onRequest = access === 'public' ? [] : access === 'signedIn' ? [authenticate] : [authenticate, allow(access[0], access[1])];
  app.route({
    method: declaration.method,
    url: declaration.path,
    onRequest,
    config: { securityHeaders: 'api' },
    ...(declaration.bodyLimit !== undefined && { bodyLimit: declaration.bodyLimit }),
    schema: {
      summary: declaration.summary,
      tags: [...declaration.tags],
      ...(access !== 'public' && { security: [{ bearer: [] }] }),
      ...(declaration.params && { params: declaration.params }),
      ...(declaration.query && { querystring: declaration.query }),
      ...(declaration.body && { body: declaration.body }),
      response: {
        [declaration.status]: declaration.response,
        ...Object.fromEntries((declaration.failures ?? []).map((status) => [status, errorEnvelope])),
      },
    },
    handler: async (request, reply) => {
      const answer = await handler(request as unknown as EndpointRequest<E>, reply);
      // A handler that answered itself (another status, a raw body) has sent its reply.
      if (answer === reply || reply.sent) return reply;
      const encoding = chosenEncoding(request.headers['accept-encoding']);
      const bytes = sharedBytes(answer, (data) => (serialize ??= zodSerializer(declaration.response))(data), encoding);
      if (bytes) {
        reply.status(declaration.status).type('application/json; charset=utf-8');
        // The same URL answers each client in the encoding it accepts; a cache must keep them apart.
        varyOn(reply, 'accept-encoding');
        if (bytes.encoding) reply.header('content-encoding', bytes.encoding);
        return reply.send(bytes.body);
      }
      return reply.status(declaration.status).send(answer);
    },
  });
}
