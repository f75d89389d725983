// A calendar feed's secret token: `{userId}-{keyed hash}`. The hash is an HMAC, under the server's
// secret, of the user's id and their random calendar key (users.calendar_key): the database alone
// cannot open a feed, the profile can show the same address again, a new key (rotation) or none
// (revocation) stops the old address at once.
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

const MAC_BYTES = 24;

export const newCalendarKey = () => randomBytes(32).toString('base64url');

function mac(secret: string, userId: number, key: string): Buffer {
  return createHmac('sha256', secret).update(`calendar-feed:${userId}:${key}`).digest().subarray(0, MAC_BYTES);
}

export function calendarToken(secret: string, userId: number, key: string): string {
  return `${userId}-${mac(secret, userId, key).toString('base64url')}`;
}

/** The user id a token names, before it is checked against that user's key (null: not a token's shape). */
export function tokenUserId(token: string): number | null {
  const match = /^([1-9]\d{0,9})-([A-Za-z0-9_-]{32})$/.exec(token);
  if (!match) return null;
  const id = Number(match[1]);
  return id <= 2 ** 31 - 1 ? id : null;
}

/** Whether `token` is the one of this user's current key, compared in constant time. */
export function tokenMatches(secret: string, userId: number, key: string | null, token: string): boolean {
  if (!key) return false;
  const given = Buffer.from(token.slice(token.indexOf('-') + 1), 'base64url');
  const expected = mac(secret, userId, key);
  return given.length === expected.length && timingSafeEqual(given, expected);
}
