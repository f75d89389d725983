import { describe, expect, it } from 'vitest';
import { foldForMatch, matchWords, normalizeSpans, segmentsOf } from './highlight';

describe('highlighted segments from matched spans', () => {
  it('cuts the text into plain and marked runs', () => {
    expect(segmentsOf('Data Science with Python', [[18, 24]])).toEqual([
      { text: 'Data Science with ', match: false },
      { text: 'Python', match: true },
    ]);
    expect(
      segmentsOf('Python for Python', [
        [0, 6],
        [11, 17],
      ]),
    ).toEqual([
      { text: 'Python', match: true },
      { text: ' for ', match: false },
      { text: 'Python', match: true },
    ]);
  });

  it('gives one plain segment when nothing matched, and nothing for empty text', () => {
    expect(segmentsOf('Courses', [])).toEqual([{ text: 'Courses', match: false }]);
    expect(segmentsOf('', [[0, 3]])).toEqual([]);
  });

  it('merges overlapping and touching spans, in any order', () => {
    expect(
      normalizeSpans(
        [
          [4, 8],
          [0, 5],
          [8, 10],
        ],
        20,
      ),
    ).toEqual([[0, 10]]);
    expect(
      segmentsOf('abcdefghij', [
        [6, 8],
        [1, 3],
        [2, 4],
      ]),
    ).toEqual([
      { text: 'a', match: false },
      { text: 'bcd', match: true },
      { text: 'ef', match: false },
      { text: 'gh', match: true },
      { text: 'ij', match: false },
    ]);
  });

  it('clips spans that reach past the text and drops empty or reversed ones', () => {
    expect(
      normalizeSpans(
        [
          [-3, 2],
          [5, 99],
          [4, 4],
          [7, 6],
        ],
        8,
      ),
    ).toEqual([
      [0, 2],
      [5, 8],
    ]);
  });

  it('counts in UTF-16 units, as the server does', () => {
    expect(segmentsOf('👩‍🏫 Python', [[6, 12]])).toEqual([
      { text: '👩‍🏫 ', match: false },
      { text: 'Python', match: true },
    ]);
  });
});

describe('matching the app pages on their translated labels', () => {
  it('finds every typed word, in any order, ignoring case and accents', () => {
    expect(matchWords('Mes cours', 'COURS')).toEqual([[4, 9]]);
    expect(matchWords('Übersicht', 'uber')).toEqual([[0, 4]]);
    expect(matchWords('My courses', 'cour my')).toEqual([
      [0, 2],
      [3, 7],
    ]);
  });

  it('does not match when a word is missing or nothing was typed', () => {
    expect(matchWords('My courses', 'my sessions')).toBeNull();
    expect(matchWords('My courses', '   ')).toBeNull();
  });

  it('ignores the bidi isolates of a right-to-left layout', () => {
    expect(matchWords('\u2068Sessions\u2069', 'sess')).toEqual([[0, 4]]);
  });

  it('keeps one folded character per character so offsets fit the label', () => {
    expect(foldForMatch('Straße').length).toBe('Straße'.length);
    expect(foldForMatch('İstanbul').length).toBe('İstanbul'.length);
  });
});
