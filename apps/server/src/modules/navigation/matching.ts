// How a query matches text, in the same terms as the database: words as PostgreSQL's 'simple' text
// search and pg_trgm see them, prefix matching ("pyth" finds Python) and trigram word similarity
// ("pyhton" finds Python). search.ts asks the database which rows match; this module says which words
// of a matched title to highlight, and builds the prefix query the database is given.
import { trigramWordThreshold } from '../../db/settings';

/**
 * pg_trgm's word similarity threshold for search (`%>`): misspellings like "kubernets", "javscript" or
 * "pythn" pass it. Two swapped letters in a short word do not ("pyhton" against "Python" scores 2/7),
 * and a threshold low enough for them lets in as much noise as matches, so swaps are matched as words:
 * the full-text query also asks for each word with two neighbouring letters swapped (`swaps`). The
 * database's own is set on every connection to the same value (db/settings.ts).
 */
const typoThreshold = trigramWordThreshold;

/** Words this long or longer are also looked for with two neighbouring letters swapped. */
const swapMinLength = 4;
const swapMaxLength = 24;

/** At most this many words of a query are used: enough for any real query, a bound on the work. */
const maxQueryWords = 8;

const wordPattern = /[\p{L}\p{M}\p{N}]+/gu;

/** The words of a text with their `[start, end)` offsets, as pg_trgm splits them (letters and digits). */
function wordsOf(text: string): { word: string; start: number; end: number }[] {
  return [...text.matchAll(wordPattern)].map((m) => ({ word: m[0].toLowerCase(), start: m.index, end: m.index + m[0].length }));
}

/** The distinct lower-case words of a query, in order, at most `maxQueryWords`. */
export function queryWords(query: string): string[] {
  return [...new Set(wordsOf(query).map((w) => w.word))].slice(0, maxQueryWords);
}

/** The word with each pair of neighbouring letters swapped ("pyhton" gives "python", among others). */
export function swaps(word: string): string[] {
  const chars = [...word];
  if (chars.length < swapMinLength || chars.length > swapMaxLength) return [];
  const out = new Set<string>();
  for (let i = 0; i + 1 < chars.length; i++) {
    if (chars[i] === chars[i + 1]) continue;
    const swapped = [...chars];
    [swapped[i], swapped[i + 1]] = [swapped[i + 1]!, swapped[i]!];
    out.add(swapped.join(''));
  }
  return [...out];
}

/**
 * A `to_tsquery('simple', …)` text where every query word is required, as a prefix (`'pyth':*`) or
 * with two neighbouring letters swapped; null when the query has no words. Words hold only letters
 * and digits, and are quoted besides.
 */
export function prefixTsQuery(query: string): string | null {
  const words = queryWords(query);
  const either = (word: string) => [word, ...swaps(word)].map((w) => `'${w}':*`).join(' | ');
  return words.length ? words.map((w) => `(${either(w)})`).join(' & ') : null;
}

/** pg_trgm's trigrams of one word, in order: padded with two spaces before and one after. */
function trigrams(word: string): string[] {
  const padded = `  ${word} `;
  const chars = [...padded];
  const out: string[] = [];
  for (let i = 0; i + 3 <= chars.length; i++) out.push(chars.slice(i, i + 3).join(''));
  return out;
}

/** A query word's trigrams, made once for the many words it is compared with. */
export const queryTrigrams = (queryWord: string): ReadonlySet<string> => new Set(trigrams(queryWord));

/**
 * pg_trgm's `word_similarity(query, word)` for one word, from the query word's trigrams: the best
 * similarity between them and any run of the word's trigrams (shared / (query's + the run's − shared),
 * each counted once).
 */
export function wordSimilarity(wanted: ReadonlySet<string>, word: string): number {
  const seq = trigrams(word);
  let best = 0;
  for (let i = 0; i < seq.length; i++) {
    const run = new Set<string>();
    let shared = 0;
    for (let j = i; j < seq.length; j++) {
      if (!run.has(seq[j]!)) {
        run.add(seq[j]!);
        if (wanted.has(seq[j]!)) shared++;
      }
      best = Math.max(best, shared / (wanted.size + run.size - shared));
    }
  }
  return best;
}

/** A query word ready to be matched against many words: the beginnings it accepts and its trigrams. */
function wordMatcher(queryWord: string): (word: string) => boolean {
  const beginnings = [queryWord, ...swaps(queryWord)];
  const wanted = queryTrigrams(queryWord);
  return (word) => beginnings.some((q) => word.startsWith(q)) || (closeEnough(wanted, word) && wordSimilarity(wanted, word) >= typoThreshold);
}

/**
 * Whether the word may reach the threshold at all: no run of it shares more trigrams with the query
 * word than the whole word does, and a run's similarity is at most shared / the query word's count.
 */
function closeEnough(wanted: ReadonlySet<string>, word: string): boolean {
  const shared = new Set(trigrams(word).filter((trigram) => wanted.has(trigram))).size;
  return shared / wanted.size >= typoThreshold;
}

/**
 * Whether a word matches any word of the query, remembered per word: one search highlights the titles
 * and subtitles of a page of results, whose words repeat, against the same query.
 */
function queryMatcher(query: string): (word: string) => boolean {
  const wanted = queryWords(query).map(wordMatcher);
  const known = new Map<string, boolean>();
  return (word) => {
    let matches = known.get(word);
    if (matches === undefined) known.set(word, (matches = wanted.some((matcher) => matcher(word))));
    return matches;
  };
}

let lastMatcher: { query: string; matches: (word: string) => boolean } | null = null;

/** The `[start, end)` spans of the words of `text` that match a word of `query`, in order. */
export function highlights(text: string | null, query: string): [number, number][] {
  if (!text) return [];
  if (lastMatcher?.query !== query) lastMatcher = { query, matches: queryMatcher(query) };
  const { matches } = lastMatcher;
  return wordsOf(text)
    .filter(({ word }) => matches(word))
    .map(({ start, end }) => [start, end]);
}
