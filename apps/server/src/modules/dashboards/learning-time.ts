// Learning time, the one rule: time present in live class sessions (attendance rows, joined_at to
// left_at) plus recording watch time (watch_log: the distinct seconds each progress report added).
// A row still open (the person is in the room, or the server died before recording the leave) counts
// up to now, but never past its session's end plus `openRowGraceMinutes`. A day's share of a span is
// the part of it between that day's local midnights; watched seconds fall on the day they were logged.
import { sql, type SQL } from 'drizzle-orm';

export const learningTimeRules = {
  /** An attendance row still open counts until at most this long after its session's end. */
  openRowGraceMinutes: 10,
} as const;

/** A list of instants as one array parameter. */
export const instantArray = (list: Date[]): SQL => sql`${`{${list.map((d) => d.toISOString()).join(',')}}`}::timestamptz[]`;

/**
 * The spans (lo, hi) of the attendance rows `where` selects (alias `a`): the end of an open row is
 * looked up in its session only when it is open (coalesce stops at the first value that is not null).
 */
export function attendanceSpans(where: SQL, now: Date, join: SQL = sql``): SQL {
  return sql`select a.joined_at as lo,
      coalesce(a.left_at, (select least(${now.toISOString()}::timestamptz, s.ends_at + make_interval(mins => ${learningTimeRules.openRowGraceMinutes}))
        from class_sessions s where s.id = a.session_id)) as hi
    from attendance a ${join}
    where ${where}`;
}

/** Seconds in all the spans of the CTE `spans`. */
export const totalSeconds = sql`(select coalesce(sum(extract(epoch from hi - lo)), 0)::float8 from spans where hi > lo)`;

/**
 * Seconds per local day (a JSON array of seven numbers, oldest first): the spans of the CTE `spans`
 * cut at the days' bounds, plus the watch-log seconds `watchWhere` selects (alias `w`) by watched_at.
 */
export function secondsPerDay(bounds: Date[], watchWhere: SQL | null): SQL {
  const watched = watchWhere
    ? sql`coalesce((select sum(w.seconds) from watch_log w where ${watchWhere} and w.watched_at >= d.lo and w.watched_at < d.hi), 0)`
    : sql`0`;
  return sql`(select coalesce(json_agg(x.seconds order by x.i), '[]'::json) from (
      select d.i, (coalesce(sum(extract(epoch from least(sp.hi, d.hi) - greatest(sp.lo, d.lo))) filter (where sp.lo is not null), 0) + ${watched})::float8 as seconds
      from unnest(${instantArray(bounds.slice(0, -1))}, ${instantArray(bounds.slice(1))}) with ordinality as d(lo, hi, i)
      left join spans sp on sp.lo < d.hi and sp.hi > d.lo
      group by d.i, d.lo, d.hi) x)`;
}

export const hours = (seconds: number) => seconds / 3600;
