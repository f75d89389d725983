import { describe, expect, it } from 'vitest';
import { highlights, prefixTsQuery, queryTrigrams, queryWords, swaps, wordSimilarity } from './matching';

describe('highlights', () => {
  it('marks a word the query begins', () => {
    expect(highlights('Python for Data Science', 'pyth')).toEqual([[0, 6]]);
  });

  it('marks every word of the text that matches any word of the query, whatever the case', () => {
    expect(highlights('Intro to DATA science', 'science data')).toEqual([
      [9, 13],
      [14, 21],
    ]);
  });

  it('marks a misspelt word: two letters swapped, or a trigram similarity past the threshold', () => {
    expect(highlights('Learn Python', 'pyhton')).toEqual([[6, 12]]);
    expect(highlights('Learn Python', 'pythn')).toEqual([[6, 12]]);
    expect(highlights('Modern JavaScript', 'javscript')).toEqual([[7, 17]]);
  });

  it('marks nothing for unrelated words, an empty text or a query without words', () => {
    expect(highlights('Watercolour painting', 'python')).toEqual([]);
    expect(highlights(null, 'python')).toEqual([]);
    expect(highlights('Python', '!!')).toEqual([]);
  });

  it('counts offsets in UTF-16 units, past accents and symbols', () => {
    const text = 'Café ☕ Crème brûlée';
    const [[start, end]] = highlights(text, 'brul') as [[number, number]];
    expect(text.slice(start, end)).toBe('brûlée');
    expect(highlights('Café Crème', 'crème')).toEqual([[5, 10]]);
  });
});

describe('word similarity, as pg_trgm computes it', () => {
  it('matches what PostgreSQL answers for word_similarity', () => {
    // Figures from `select word_similarity(a, b)` on PostgreSQL 17 (PGlite).
    expect(wordSimilarity(queryTrigrams('pyhton'), 'python')).toBeCloseTo(0.2857143, 6);
    expect(wordSimilarity(queryTrigrams('pyth'), 'python')).toBeCloseTo(0.8, 6);
    expect(wordSimilarity(queryTrigrams('p'), 'python')).toBeCloseTo(0.5, 6);
    expect(wordSimilarity(queryTrigrams('python'), 'python')).toBe(1);
  });
});

describe('the full-text query', () => {
  it('makes each word a required prefix, or the word with two neighbouring letters swapped', () => {
    expect(prefixTsQuery('Pyth  go')).toBe("('pyth':* | 'ypth':* | 'ptyh':* | 'pyht':*) & ('go':*)");
    expect(swaps('pyhton')).toContain('python');
    expect(swaps('aab')).toEqual([]);
    expect(swaps('book')).toEqual(['obok', 'boko']);
  });

  it('keeps only letters and digits, so nothing the text search syntax means reaches it', () => {
    expect(prefixTsQuery("c++ & !x | 'y':*")).toBe("('c':*) & ('x':*) & ('y':*)");
    expect(prefixTsQuery('&|!():*')).toBeNull();
  });

  it('uses each word once and at most eight words', () => {
    expect(queryWords('a a b')).toEqual(['a', 'b']);
    expect(queryWords('1 2 3 4 5 6 7 8 9 10')).toHaveLength(8);
  });
});
