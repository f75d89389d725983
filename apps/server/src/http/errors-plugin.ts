// Every failure leaves the server in the contract's envelope with a correct status.
import type { FastifyError, FastifyInstance } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { messages } from '@mooz/contract/messages';
import { HttpError, type FieldErrors } from './errors';

function fieldOf(instancePath: string, fallback: string) {
  const path = instancePath.replace(/^\//, '').replace(/\//g, '.');
  return path || fallback;
}

// PostgreSQL's codes for a connection lost or refused (class 08) and a server shutting down or
// killing the backend (57P01–57P03); the socket errors of node-postgres; ioredis's words for a
// connection it does not have.
const outageCodes = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'ENOTFOUND', '57P01', '57P02', '57P03']);
const outageMessages = /Connection terminated|connection timeout|Connection is closed|enableOfflineQueue|MaxRetriesPerRequest|Client has encountered a connection error|Client was closed/i;

/** A database or Redis that cannot be reached right now: the request may work again in a moment. */
function isOutage(error: unknown): boolean {
  for (let cause = error as { code?: unknown; message?: unknown; cause?: unknown } | undefined, i = 0; cause && i < 5; cause = cause.cause as typeof cause, i++) {
    const code = typeof cause.code === 'string' ? cause.code : '';
    if (outageCodes.has(code) || code.startsWith('08')) return true;
    if (typeof cause.message === 'string' && outageMessages.test(cause.message)) return true;
  }
  return false;
}

export function registerErrorHandling(app: FastifyInstance) {
  // A refusal sent while the request's body is still arriving (a file refused by its first bytes, one
  // too large, a caller refused before the body is read) closes the connection once answered: the
  // client stops sending, rather than the server reading hundreds of megabytes nobody will use.
  app.addHook('onSend', async (request, reply) => {
    if (reply.statusCode >= 400 && request.raw.complete === false) reply.header('connection', 'close');
  });
  app.setErrorHandler((error: FastifyError, request, reply) => {
    if (error instanceof HttpError) {
      if (error.headers) reply.headers(error.headers);
      return reply.status(error.statusCode).send({ message: error.message, errors: error.errors });
    }
    if (hasZodFastifySchemaValidationErrors(error)) {
      const errors: FieldErrors = {};
      for (const issue of error.validation) {
        const field = fieldOf(issue.instancePath ?? '', error.validationContext ?? 'body');
        const list = (errors[field] ??= []);
        // Several checks of one field can fail with the same words (an id both too large and not whole).
        const message = issue.message ?? 'Invalid value';
        if (!list.includes(message)) list.push(message);
      }
      return reply.status(400).send({ message: messages.validationFailed, errors });
    }
    if (isOutage(error)) {
      request.log.warn({ err: error, reqId: request.id }, 'a backing service is unavailable');
      return reply.status(503).header('retry-after', '5').send({ message: messages.serviceUnavailable });
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
