// The building blocks of every request schema, so one rule covers every endpoint:
// - text never carries control characters (PostgreSQL cannot store NUL, and no form types the others;
//   descriptions may hold line breaks and tabs) nor half of a UTF-16 surrogate pair, which is no
//   character at all (a jsonb column refuses it, a text column would silently change it);
// - a record id fits PostgreSQL's `integer`, so an id past 2³¹ − 1 is a 400, not a database error.
import { z } from 'zod';
import './zod-messages';
import { validationMessages as v } from './messages';

/** The largest id a PostgreSQL `integer` (serial) column holds. */
export const maxRecordId = 2_147_483_647;

// Control characters are exactly what these patterns are about.
// eslint-disable-next-line no-control-regex
const noControlCharacters = /^[^\u0000-\u001f\u007f\p{Cs}]*$/u;
// eslint-disable-next-line no-control-regex
const noControlCharactersButLineBreaks = /^[^\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f\p{Cs}]*$/u;

/** One line of text: a name, a title, an id from a provider. */
export const singleLineText = () => z.string().regex(noControlCharacters, v.controlCharacters);

/** Text that may span lines: a description. */
export const multiLineText = () => z.string().regex(noControlCharactersButLineBreaks, v.controlCharacters);

/** An id in a JSON body. */
export const recordId = () => z.number().int(v.recordId).positive(v.recordId).max(maxRecordId, v.recordId);

/** An id in a path or query string, where it arrives as text. */
export const recordIdParam = () => z.coerce.number().int(v.recordId).positive(v.recordId).max(maxRecordId, v.recordId);

/** `YYYY-MM-DD` naming a real calendar day. */
// zod's ISO date pattern knows month lengths and leap years, and it reaches the OpenAPI document.
export const isoDate = z.iso.date('Use a real date in the format YYYY-MM-DD');

/** A 24-hour clock time `HH:MM`. */
export const clockTime = z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$/, 'Use the format HH:MM');

export const batchKinds = ['weekdays', 'weekends'] as const;
export const batchKind = z.enum(batchKinds);
export type BatchKind = z.infer<typeof batchKind>;
