// The dashboards' `tz`: an IANA zone name the server's Intl knows (`Asia/Kolkata`, `UTC`), UTC by
// default, and its local days cut at local midnight (23 or 25 hours long on daylight-saving days).
import { messages } from '@mooz/contract/messages';
import { HttpError } from '../../http/errors';
import { remembered } from '../../infrastructure/remembered';
import { wallClock, zoneOffsetMs } from '../../infrastructure/wall-clock';

const defaultTimeZone = 'UTC';

// Building an Intl.DateTimeFormat to ask is slow next to a lookup: each name is asked once.
const resolve = remembered(1024, resolveAfresh);

/**
 * A zone name as the caller sent it (as Intl spells it when only the case differs: `europe/berlin`),
 * or null when unknown. An alias stays as sent: ICU would turn `Asia/Kolkata` into `Asia/Calcutta`.
 */
function resolveAfresh(name: string): string | null {
  // Names only: an offset (`+05:30`) or anything that is not a zone name is refused, not guessed at.
  if (!/^[A-Za-z][A-Za-z0-9_+\-/]*$/.test(name) || name.includes('//') || name.endsWith('/')) return null;
  try {
    const resolved = new Intl.DateTimeFormat('en-US', { timeZone: name }).resolvedOptions().timeZone;
    return resolved.toLowerCase() === name.toLowerCase() ? resolved : name;
  } catch {
    return null;
  }
}

/** The zone to cut days in: the caller's, checked (400 naming `tz` when unknown), or UTC. */
export function checkTimeZone(tz: string | undefined): string {
  if (tz === undefined || tz === '') return defaultTimeZone;
  const resolved = resolve(tz);
  if (!resolved) throw new HttpError(400, messages.unknownTimeZone, { tz: [messages.unknownTimeZone] });
  return resolved;
}

const DAY = 86_400_000;
const HOUR = 3_600_000;
const isoDay = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/**
 * The first instant of a local day (`YYYY-MM-DD`) in the zone: its midnight, or, where the clocks
 * skip midnight, the first moment the day exists.
 */
export function localMidnight(tz: string, date: string): number {
  return midnight(`${tz} ${date}`);
}

// A pure function of its arguments that costs a few dozen Intl calls: every dashboard asks for the same
// eight per zone all day long.
const midnight = remembered(4096, (key) => {
  const [tz, date] = key.split(' ') as [string, string];
  return findMidnight(tz, date);
});

function findMidnight(tz: string, date: string): number {
  const target = `${date}T00:00:00`;
  const base = Date.parse(`${target}Z`);
  let t = base - zoneOffsetMs(tz, base);
  t = base - zoneOffsetMs(tz, t);
  if (wallClock(tz, t) === target && wallClock(tz, t - 1000) < target) return t;
  // The clocks change around midnight: the earliest second whose local time is on or past it. Zones
  // are within UTC-12..+14, and a change moves the clock by at most two hours.
  let lo = (base - 16 * HOUR) / 1000;
  let hi = (base + 14 * HOUR) / 1000;
  while (lo < hi) {
    const mid = Math.floor((lo + hi) / 2);
    if (wallClock(tz, mid * 1000) >= target) hi = mid;
    else lo = mid + 1;
  }
  return lo * 1000;
}

interface LocalWeek {
  /** The seven local days ending today, oldest first (YYYY-MM-DD). */
  dates: string[];
  /** Eight instants: the start of each day, then the end of today. */
  bounds: Date[];
}

/** The last seven local days in `tz`, ending with the day `now` falls on there. */
export function localWeek(tz: string, now: Date): LocalWeek {
  const today = wallClock(tz, now.getTime()).slice(0, 10);
  const todayUtc = Date.parse(`${today}T00:00:00Z`);
  const days = Array.from({ length: 8 }, (_, i) => isoDay(todayUtc + (i - 6) * DAY));
  return { dates: days.slice(0, 7), bounds: days.map((d) => new Date(localMidnight(tz, d))) };
}
