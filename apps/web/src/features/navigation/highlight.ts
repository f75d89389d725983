// Matched text as segments to draw, plain or marked. The server sends `[start, end)` spans (UTF-16
// offsets) for its results; the app's pages are matched here, on their translated labels.

export type Span = readonly [number, number];
interface Segment {
  text: string;
  match: boolean;
}

/** Spans clipped to the text, sorted and merged, so overlapping or stray spans from anyone draw sanely. */
export function normalizeSpans(spans: readonly Span[], length: number): Span[] {
  const clipped = spans
    .map(([start, end]): Span => [Math.max(0, Math.min(start, length)), Math.max(0, Math.min(end, length))])
    .filter(([start, end]) => end > start)
    .sort((a, b) => a[0] - b[0]);
  const merged: [number, number][] = [];
  for (const [start, end] of clipped) {
    const last = merged.at(-1);
    if (last && start <= last[1]) last[1] = Math.max(last[1], end);
    else merged.push([start, end]);
  }
  return merged;
}

/** `text` cut into alternating plain and matched segments; empty segments are left out. */
export function segmentsOf(text: string, spans: readonly Span[]): Segment[] {
  const segments: Segment[] = [];
  let at = 0;
  for (const [start, end] of normalizeSpans(spans, text.length)) {
    if (start > at) segments.push({ text: text.slice(at, start), match: false });
    segments.push({ text: text.slice(start, end), match: true });
    at = end;
  }
  if (at < text.length) segments.push({ text: text.slice(at), match: false });
  return segments;
}

// Bidi isolates (added to translations in right-to-left layouts, lib/bidi.ts) are not part of what
// anyone types.
const isolates = /[\u2066-\u2069]/g;

/** Text as compared: isolates dropped, lower case, accents off ("Übersicht" is found by "uber"), one char per char. */
export function foldForMatch(text: string): string {
  return Array.from(text.replace(isolates, ''), (char) => {
    const bare = char.normalize('NFD').replace(/\p{Mn}/gu, '');
    // A character whose folding changes its length (ß → ss would) is kept, so offsets still line up.
    const lower = bare.toLocaleLowerCase();
    return lower.length === char.length
      ? lower
      : char.toLocaleLowerCase().length === char.length
        ? char.toLocaleLowerCase()
        : char;
  }).join('');
}

/**
 * Where each word of `query` occurs in `text` (the text without bidi isolates), or null when a word is
 * missing: a page matches when all the typed words are found in its label, in any order.
 */
export function matchWords(text: string, query: string): Span[] | null {
  const haystack = foldForMatch(text);
  const words = foldForMatch(query).split(/\s+/).filter(Boolean);
  if (words.length === 0) return null;
  const spans: Span[] = [];
  for (const word of words) {
    const at = haystack.indexOf(word);
    if (at === -1) return null;
    spans.push([at, at + word.length]);
  }
  return normalizeSpans(spans, haystack.length);
}

/** A label as shown in the search list: bidi isolates dropped, so the matched offsets fit it. */
export const plainLabel = (text: string) => text.replace(isolates, '');
