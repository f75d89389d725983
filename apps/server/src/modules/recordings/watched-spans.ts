// Watched time without double counting: the spans of a video a viewer has played are kept merged
// (sorted, disjoint), and what they have watched is the length of that union. Playing the same minute
// twice, or seeking back and forth, adds nothing; only new parts of the video count.
//
// Span ends are rounded to whole seconds. Learning time is counted in fractions of an hour, so a
// second is far finer than any dashboard shows, and it bounds what one viewer's row can hold: every
// kept span is at least a second long and a second away from the next, so a video of D seconds keeps
// at most D/2 of them, however many tiny spans a client reports.

export type Span = readonly [from: number, to: number];

/** Each span cut to the video's [0, duration], its ends on whole seconds; spans left empty are dropped. */
export function clampSpans(spans: readonly Span[], durationSeconds: number): Span[] {
  const end = Math.max(0, durationSeconds);
  const out: Span[] = [];
  for (const [from, to] of spans) {
    if (!Number.isFinite(from) || !Number.isFinite(to)) continue;
    const a = Math.round(Math.min(Math.max(from, 0), end));
    const b = Math.round(Math.min(Math.max(to, 0), end));
    if (b > a) out.push([a, b]);
  }
  return out;
}

/** The union of spans, sorted and disjoint; spans that overlap or touch become one. */
export function mergeSpans(...lists: (readonly Span[])[]): Span[] {
  const all = lists.flat().filter(([from, to]) => to > from);
  all.sort((x, y) => x[0] - y[0] || x[1] - y[1]);
  const merged: [number, number][] = [];
  for (const [from, to] of all) {
    const last = merged.at(-1);
    if (last && from <= last[1]) last[1] = Math.max(last[1], to);
    else merged.push([from, to]);
  }
  return merged;
}

/** Total length of sorted, disjoint spans (what mergeSpans returns). */
export const spansLength = (spans: readonly Span[]) => spans.reduce((sum, [from, to]) => sum + (to - from), 0);

/** A report applied to what was kept: the new union and its length. */
export function addWatched(kept: readonly Span[], reported: readonly Span[], durationSeconds: number) {
  const spans = mergeSpans(clampSpans(kept, durationSeconds), clampSpans(reported, durationSeconds));
  return { spans, watchedSeconds: spansLength(spans) };
}
