import { beforeEach, describe, expect, it } from 'vitest';
import type { NavigationItem } from '@mooz/contract/navigation';
import { layoutStateDefaults, moveItem, useLayoutState } from './layout-state';

const item = (id: string, isBookmarked = false): NavigationItem => ({
  id,
  title: id,
  link: `/${id}`,
  icon: 'book',
  isBookmarked,
});
const ids = (items: NavigationItem[]) => items.map((one) => one.id);

describe('the layout state', () => {
  beforeEach(() => useLayoutState.setState(layoutStateDefaults));

  it('starts with an empty query, no bookmarks and no suggestions', () => {
    expect(useLayoutState.getState()).toMatchObject({ query: '', bookmarks: [], suggestions: [] });
  });

  it('sets the query to the text passed in', () => {
    useLayoutState.getState().setQuery('pyth');
    expect(useLayoutState.getState().query).toBe('pyth');
  });

  it("replaces suggestions and bookmarks with the server's lists when bookmark data loads", () => {
    useLayoutState.setState({ suggestions: [item('old')], bookmarks: [item('old', true)] });
    useLayoutState
      .getState()
      .bookmarksLoaded({
        suggestions: [item('page:courses'), item('course:1', true)],
        bookmarks: [item('course:1', true)],
      });
    const state = useLayoutState.getState();
    expect(ids(state.suggestions)).toEqual(['page:courses', 'course:1']);
    expect(ids(state.bookmarks)).toEqual(['course:1']);
    expect(state.loaded).toBe(true);
  });

  it('flips the matching suggestion once a toggle is confirmed, adding it last or removing it', () => {
    useLayoutState.getState().bookmarksLoaded({
      suggestions: [item('page:courses'), item('course:1', true), item('course:2')],
      bookmarks: [item('course:1', true)],
    });
    useLayoutState.getState().bookmarkToggled('course:2');
    let state = useLayoutState.getState();
    expect(state.suggestions.find((one) => one.id === 'course:2')?.isBookmarked).toBe(true);
    expect(ids(state.bookmarks)).toEqual(['course:1', 'course:2']);

    useLayoutState.getState().bookmarkToggled('course:1');
    state = useLayoutState.getState();
    expect(state.suggestions.find((one) => one.id === 'course:1')?.isBookmarked).toBe(false);
    expect(ids(state.bookmarks)).toEqual(['course:2']);
  });

  it('orders the bookmarks as asked, keeping any the order left out at the end', () => {
    const bookmarks = [item('a', true), item('b', true), item('c', true)];
    useLayoutState.setState({ bookmarks });
    useLayoutState.getState().bookmarksOrdered(['c', 'a', 'zzz']);
    expect(ids(useLayoutState.getState().bookmarks)).toEqual(['c', 'a', 'b']);
  });
});

describe('moving an item in a list', () => {
  it('moves up and down and clamps at the ends', () => {
    expect(moveItem(['a', 'b', 'c'], 2, 0)).toEqual(['c', 'a', 'b']);
    expect(moveItem(['a', 'b', 'c'], 0, 1)).toEqual(['b', 'a', 'c']);
    expect(moveItem(['a', 'b', 'c'], 0, 9)).toEqual(['b', 'c', 'a']);
    expect(moveItem(['a', 'b', 'c'], 1, -4)).toEqual(['b', 'a', 'c']);
    expect(moveItem(['a', 'b'], 5, 0)).toEqual(['a', 'b']);
  });
});
