import { z } from 'zod';
import { dataEnvelope } from '../envelope';

/** The answer of an endpoint with nothing to tell but that it was done: `{ data: null }`. */
export const done = dataEnvelope(z.null());
