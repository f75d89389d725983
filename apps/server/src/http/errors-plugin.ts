// Every failure leaves the server in the contract's envelope with a correct status.
import type { FastifyError, FastifyInstance } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { messages } from '@mooz/contract/messages';
import { HttpError, type FieldErrors } from './errors';

function fieldOf(instancePath: string, fallback: string) {
  const path = instancePath.replace(/^\//, '').replace(/\//g, '.');
  return path || fallback;
}

export function registerErrorHandling(app: FastifyInstance) {
  app.setErrorHandler((error: FastifyError, request, reply) => {
    if (error instanceof HttpError) {
      if (error.headers) reply.headers(error.headers);
      return reply.status(error.statusCode).send({ message: error.message, errors: error.errors });
    }
    if (hasZodFastifySchemaValidationErrors(error)) {
      const errors: FieldErrors = {};
      for (const issue of error.validation) {
        const field = fieldOf(issue.instancePath ?? '', error.validationContext ?? 'body');
        (errors[field] ??= []).push(issue.message ?? 'Invalid value');
      }
      return reply.status(400).send({ message: messages.validationFailed, errors });
    }
    const status = error.statusCode ?? 500;
    if (status === 413) return reply.status(413).send({ message: messages.payloadTooLarge });
    if (status === 429) return reply.status(429).send({ message: messages.rateLimited });
    if (status >= 400 && status < 500) {
      // Fastify's own client errors (malformed JSON, wrong content type, body too large): say what it is.
      return reply.status(status).send({ message: error.message });
    }
    request.log.error({ err: error, reqId: request.id }, 'unexpected error');
    return reply.status(500).send({ message: messages.unexpected });
  });
}
