// Learning time, the one rule: time present in live class sessions (attendance rows, joined_at to
// left_at) plus recording watch time (watch_log: the distinct seconds each progress report added).
// A row still open (the person is in the room, or the server died before recording the leave) counts
// up to now, but never past its session's end plus `openRowGraceMinutes`. A day's share of a span is
// the part of it between that day's local midnights; watched seconds fall on the day they were logged.
// A learner's totals so far are kept in learning_totals by triggers (migration 0010): their dashboard
// reads those and cuts only the week's rows (and any still open) into days.
import { sql, type SQL } from 'drizzle-orm';

export const learningTimeRules = {
  /** An attendance row still open counts until at most this long after its session's end. */
  openRowGraceMinutes: 10,
} as const;

/**
 * The spans (lo, hi) of the attendance rows `where` selects (alias `a`): the end of an open row is
 * looked up in its session only when it is open (coalesce stops at the first value that is not null).
 * `from` may narrow the rows first (still as `a`), `join` add tables for `where`.
 */
export function attendanceSpans(where: SQL, now: Date, join: SQL = sql``, from: SQL = sql`attendance a`): SQL {
  return sql`select a.joined_at as lo, a.left_at is null as open,
      coalesce(a.left_at, (select least(${now.toISOString()}::timestamptz, s.ends_at + make_interval(mins => ${learningTimeRules.openRowGraceMinutes}))
        from class_sessions s where s.id = a.session_id)) as hi
    from ${from} ${join}
    where ${where}`;
}

const at = (d: Date) => sql`${d.toISOString()}::timestamptz`;

/** For each local day (bounds[i] to bounds[i + 1]), the sum of `seconds` over the rows `inDay` keeps. */
function perDay(bounds: Date[], inDay: (lo: SQL, hi: SQL) => SQL, seconds: (lo: SQL, hi: SQL) => SQL): SQL {
  return sql.join(
    bounds.slice(0, -1).map((lo, i) => {
      const hi = bounds[i + 1]!;
      return sql`coalesce(sum(${seconds(at(lo), at(hi))}) filter (where ${inDay(at(lo), at(hi))}), 0)::float8`;
    }),
    sql`, `,
  );
}

/**
 * Live seconds as a JSON array: the total, then each local day's share, in one pass over the spans
 * (a span that crosses a midnight is cut there). With `keptClosed` (learning_totals' live seconds of
 * the same people) the spans need only be the week's and the open ones: the total is the kept closed
 * spans' plus the open ones'.
 */
export function liveSeconds(spans: SQL, bounds: Date[], keptClosed?: SQL): SQL {
  const days = perDay(
    bounds,
    (lo, hi) => sql`sp.lo < ${hi} and sp.hi > ${lo}`,
    (lo, hi) => sql`extract(epoch from least(sp.hi, ${hi}) - greatest(sp.lo, ${lo}))`,
  );
  const total = keptClosed
    ? sql`(${keptClosed} + coalesce(sum(extract(epoch from sp.hi - sp.lo)) filter (where sp.open and sp.hi > sp.lo), 0))::float8`
    : sql`coalesce(sum(extract(epoch from sp.hi - sp.lo)) filter (where sp.hi > sp.lo), 0)::float8`;
  // OFFSET 0: each span's end (a lookup in its session when open) is worked out once, not per day.
  return sql`(select json_build_array(${total}, ${days}) from (${spans} offset 0) sp)`;
}

/** The sum of a learning_totals column over the learners `who` selects (alias `t`). */
const keptTotal = (column: 'live_seconds' | 'watched_seconds', who: (column: string) => SQL): SQL =>
  sql`(select coalesce(sum(t.${sql.raw(column)}), 0) from learning_totals t where ${who('t.user_id')})`;

/**
 * A learner's (or every learner's) live seconds, as liveSeconds: the closed spans' total from
 * learning_totals, the week's and the open spans from attendance (attendance_user_left_idx).
 */
export function learnerLiveSeconds(who: (column: string) => SQL, now: Date, bounds: Date[]): SQL {
  const spans = attendanceSpans(sql`${who('a.user_id')} and (a.left_at is null or a.left_at > ${at(bounds[0]!)})`, now);
  return liveSeconds(spans, bounds, keptTotal('live_seconds', who));
}

/**
 * Watched seconds (watch_log rows `where` selects, alias `w`) as a JSON array: the total, then each
 * local day's, by watched_at. With `keptTotal` (learning_totals' watched seconds of the same people)
 * only the week's rows are read.
 */
function watchedSeconds(where: SQL, bounds: Date[], keptTotal?: SQL): SQL {
  const days = perDay(
    bounds,
    (lo, hi) => sql`w.watched_at >= ${lo} and w.watched_at < ${hi}`,
    () => sql`w.seconds`,
  );
  if (!keptTotal) return sql`(select json_build_array(coalesce(sum(w.seconds), 0)::float8, ${days}) from watch_log w where ${where})`;
  const week = sql`w.watched_at >= ${at(bounds[0]!)} and w.watched_at < ${at(bounds.at(-1)!)}`;
  return sql`(select json_build_array(${keptTotal}::float8, ${days}) from watch_log w where ${where} and ${week})`;
}

/** A learner's (or every learner's) watched seconds, as watchedSeconds, with the total from learning_totals. */
export function learnerWatchedSeconds(who: (column: string) => SQL, bounds: Date[]): SQL {
  return watchedSeconds(who('w.user_id'), bounds, keptTotal('watched_seconds', who));
}

export const hours = (seconds: number) => seconds / 3600;
