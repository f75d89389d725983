// JSON request bodies with a nesting limit. JSON.parse has none: a body of nested brackets costs
// noticeable CPU per request before any schema looks at it. A single pass over the
// bytes refuses deep bodies first; the rest goes to Fastify's own parser (prototype-poisoning checks).
import type { FastifyInstance } from 'fastify';
import { HttpError } from './errors';
import { messages } from '@mooz/contract/messages';
import { httpLimits } from '@mooz/contract/limits';

const OPEN_OBJECT = 0x7b;
const OPEN_ARRAY = 0x5b;
const CLOSE_OBJECT = 0x7d;
const CLOSE_ARRAY = 0x5d;
const QUOTE = 0x22;
const BACKSLASH = 0x5c;

/** The deepest nesting of objects and arrays in a JSON text, stopping as soon as it passes `max`. */
function nestingDepth(text: string, max: number): number {
  let depth = 0;
  let deepest = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === BACKSLASH) i++;
      else if (c === QUOTE) inString = false;
    } else if (c === QUOTE) inString = true;
    else if (c === OPEN_OBJECT || c === OPEN_ARRAY) {
      depth++;
      if (depth > deepest) deepest = depth;
      if (deepest > max) return deepest;
    } else if (c === CLOSE_OBJECT || c === CLOSE_ARRAY) depth--;
  }
  return deepest;
}

export function registerJsonBodies(app: FastifyInstance) {
  const parse = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    const text = body as string;
    if (nestingDepth(text, httpLimits.jsonMaxDepth) > httpLimits.jsonMaxDepth) {
      return done(new HttpError(400, messages.bodyTooDeep), undefined);
    }
    parse(request, text, done);
  });
}
