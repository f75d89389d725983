// Calendars: each user's private iCalendar feed of their class sessions, behind a secret
// token in its URL, and one session's .ics. Shapes only; endpoints.ts declares the calls.
import { z } from 'zod';

/** The caller's feed: its https:// address and the same as webcal:// (what calendar apps subscribe to); null when none is on. */
export const calendarFeed = z.object({
  url: z.string(),
  webcal_url: z.string(),
  created_at: z.string(),
});
export type CalendarFeed = z.infer<typeof calendarFeed>;

/** The secret part of a feed's address: the user's id and a keyed hash, letters, digits, `_` and `-` only. */
export const calendarTokenParams = z.object({
  token: z
    .string()
    .max(100)
    .regex(/^[A-Za-z0-9_-]+$/),
});
