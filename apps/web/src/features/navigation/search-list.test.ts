import { describe, expect, it } from 'vitest';
import { groupEntries, keepActive, stepActive, uniqueEntries, type SearchEntry } from './search-list';

const entry = (id: string, kind: SearchEntry['kind']): SearchEntry => ({
  id,
  kind,
  title: id,
  subtitle: null,
  link: `/${id}`,
  icon: 'book',
  highlights: { title: [], subtitle: [] },
});

describe('grouping search entries by kind', () => {
  it('orders groups courses, pages, sessions, recordings, students and numbers entries in reading order', () => {
    const groups = groupEntries([
      entry('student:1', 'student'),
      entry('recording:5', 'recording'),
      entry('course:2', 'course'),
      entry('session:3', 'session'),
      entry('course:1', 'course'),
      entry('page:courses', 'page'),
    ]);
    // Courses first: Enter opens the first entry, the best course.
    expect(groups.map((group) => group.kind)).toEqual(['course', 'page', 'session', 'recording', 'student']);
    expect(groups.flatMap((group) => group.entries.map(({ entry, index }) => [index, entry.id]))).toEqual([
      [0, 'course:2'],
      [1, 'course:1'],
      [2, 'page:courses'],
      [3, 'session:3'],
      [4, 'recording:5'],
      [5, 'student:1'],
    ]);
  });

  it('puts bookmarks first and leaves out empty groups', () => {
    const groups = groupEntries([entry('page:sessions', 'page'), entry('course:9', 'bookmark')]);
    expect(groups.map((group) => group.kind)).toEqual(['bookmark', 'page']);
    expect(groupEntries([])).toEqual([]);
  });

  it('keeps an entry once', () => {
    expect(uniqueEntries([entry('a', 'page'), entry('b', 'course'), entry('a', 'course')]).map((e) => e.id)).toEqual([
      'a',
      'b',
    ]);
  });
});

describe('moving through the list with the keyboard', () => {
  it('arrows move by one and wrap around at both ends', () => {
    expect(stepActive(-1, 3, 'ArrowDown')).toBe(0);
    expect(stepActive(0, 3, 'ArrowDown')).toBe(1);
    expect(stepActive(2, 3, 'ArrowDown')).toBe(0);
    expect(stepActive(0, 3, 'ArrowUp')).toBe(2);
    expect(stepActive(-1, 3, 'ArrowUp')).toBe(2);
    expect(stepActive(2, 3, 'ArrowUp')).toBe(1);
  });

  it('Home, End and the page keys stop at the ends', () => {
    expect(stepActive(4, 10, 'Home')).toBe(0);
    expect(stepActive(4, 10, 'End')).toBe(9);
    expect(stepActive(7, 10, 'PageDown')).toBe(9);
    expect(stepActive(2, 10, 'PageDown')).toBe(7);
    expect(stepActive(3, 10, 'PageUp')).toBe(0);
  });

  it('an empty list has nothing active', () => {
    expect(stepActive(0, 0, 'ArrowDown')).toBe(-1);
    expect(keepActive(3, 0)).toBe(-1);
  });

  it('a changed list keeps the place when it still exists, else starts at the top', () => {
    expect(keepActive(2, 5)).toBe(2);
    expect(keepActive(6, 5)).toBe(0);
    expect(keepActive(-1, 5)).toBe(0);
  });
});
