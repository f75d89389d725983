// The spec's layout state: the search query (starts empty), the bookmarks and the suggestions (each
// suggestion an item with `isBookmarked`). Kept in memory, so the query survives navigation but not a
// reload; the bookmarks come back from GET /api/bookmarks/data after every load.
import { create } from 'zustand';
import type { BookmarksData, NavigationItem } from '@mooz/contract/navigation';

interface LayoutState {
  query: string;
  bookmarks: NavigationItem[];
  suggestions: NavigationItem[];
  /** Whether the server's lists have arrived at least once. */
  loaded: boolean;
  /**
   * Something was typed into the query since the search last opened, in its field or before the field
   * was there: a focus of the field must not select it then (the focus trap may focus it again).
   */
  typedSinceOpen: boolean;
}

interface LayoutStateActions {
  /** "Search query is set to the text passed in." */
  setQuery: (query: string) => void;
  /** "After bookmark data loads, suggestions and bookmarks are replaced by the server's lists." */
  bookmarksLoaded: (data: BookmarksData) => void;
  /** "Once the server confirms the update, the suggestion with the matching id has isBookmarked flipped." */
  bookmarkToggled: (id: string) => void;
  /** The bookmarks shown in a new order before the server confirms it (ids not bookmarked are ignored). */
  bookmarksOrdered: (ids: readonly string[]) => void;
  /** Another account: the lists go (the query stays, it is the tab's, not the account's). */
  bookmarksForgotten: () => void;
  reset: () => void;
}

export const layoutStateDefaults: LayoutState = {
  query: '',
  bookmarks: [],
  suggestions: [],
  loaded: false,
  typedSinceOpen: false,
};

/** Moves the item at `from` to `to` (both clamped to the list), returning a new list. */
export function moveItem<T>(list: readonly T[], from: number, to: number): T[] {
  if (from < 0 || from >= list.length) return [...list];
  const next = [...list];
  const [item] = next.splice(from, 1);
  next.splice(Math.max(0, Math.min(to, next.length)), 0, item as T);
  return next;
}

/** The bookmarks after a confirmed toggle: a newly starred suggestion goes last, as the server puts it. */
function toggledBookmarks(
  state: Pick<LayoutState, 'bookmarks' | 'suggestions'>,
  id: string,
): Pick<LayoutState, 'bookmarks' | 'suggestions'> {
  const suggestions = state.suggestions.map((item) =>
    item.id === id ? { ...item, isBookmarked: !item.isBookmarked } : item,
  );
  const flipped = suggestions.find((item) => item.id === id);
  const without = state.bookmarks.filter((item) => item.id !== id);
  const bookmarks = flipped?.isBookmarked ? [...without, flipped] : without;
  return { suggestions, bookmarks };
}

export const useLayoutState = create<LayoutState & LayoutStateActions>()((set) => ({
  ...layoutStateDefaults,
  setQuery: (query) => set({ query }),
  bookmarksLoaded: (data) => set({ suggestions: data.suggestions, bookmarks: data.bookmarks, loaded: true }),
  bookmarkToggled: (id) => set((state) => toggledBookmarks(state, id)),
  bookmarksOrdered: (ids) =>
    set((state) => {
      const byId = new Map(state.bookmarks.map((item) => [item.id, item]));
      const ordered = ids.flatMap((id) => byId.get(id) ?? []);
      const rest = state.bookmarks.filter((item) => !ids.includes(item.id));
      return { bookmarks: [...ordered, ...rest] };
    }),
  bookmarksForgotten: () => set({ bookmarks: [], suggestions: [], loaded: false }),
  reset: () => set(layoutStateDefaults),
}));

/** Whether `id` is bookmarked, as far as the layout state knows; `fallback` before the lists arrive. */
export function useIsBookmarked(id: string, fallback = false): boolean {
  return useLayoutState((state) => (state.loaded ? state.bookmarks.some((item) => item.id === id) : fallback));
}
