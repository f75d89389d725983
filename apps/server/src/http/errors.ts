// Errors a route or service throws on purpose. The error handler turns them into the contract's
// envelope {message, errors?}; anything else becomes a generic 500 with the detail only in the log.
import { messages } from '@mooz/contract/messages';

export type FieldErrors = Record<string, string[]>;

export class HttpError extends Error {
  constructor(
    readonly statusCode: number,
    message: string,
    readonly errors?: FieldErrors,
    readonly headers?: Record<string, string>,
  ) {
    super(message);
  }
}

export const badRequest = (message: string, errors?: FieldErrors) => new HttpError(400, message, errors);
/** A 400 naming one field, as the contract's validation failures do. */
export const invalidField = (field: string, problem: string) =>
  new HttpError(400, messages.validationFailed, { [field]: [problem] });
export const unauthorized = (message: string = messages.unauthorized) => new HttpError(401, message);
export const forbidden = (message: string = messages.forbidden) => new HttpError(403, message);
export const notFound = (message: string = messages.notFound) => new HttpError(404, message);
export const conflict = (message: string) => new HttpError(409, message);
export const tooManyRequests = (retryAfterSeconds: number, message: string = messages.rateLimited) =>
  new HttpError(429, message, undefined, { 'retry-after': String(Math.max(1, Math.ceil(retryAfterSeconds))) });
