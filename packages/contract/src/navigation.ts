// Finding things: the app's pages (which search and bookmarks offer to whoever may open them), the
// bookmarks of `GET /api/bookmarks/data`, and the results of `GET /api/search/`.
import { z } from 'zod';
import { singleLineText } from './primitives';

export { appPages, courseItemId, navigationIcons, searchKinds, type AppPage, type NavigationIcon, type SearchKind } from './navigation-lists';
import { navigationIcons, searchKinds } from './navigation-lists';

export const navigationItem = z.object({
  id: z.string(),
  title: z.string(),
  link: z.string(),
  icon: z.enum(navigationIcons),
  isBookmarked: z.boolean(),
});
export type NavigationItem = z.infer<typeof navigationItem>;

export const bookmarksData = z.object({
  suggestions: z.array(navigationItem),
  bookmarks: z.array(navigationItem),
});
export type BookmarksData = z.infer<typeof bookmarksData>;

const itemId = singleLineText().trim().min(1, 'Required').max(64, 'Use at most 64 characters');

export const bookmarkToggleBody = z.object({ id: itemId });
/** The caller's bookmarks in their new order: exactly the ids they have bookmarked, each once. */
export const bookmarkOrderBody = z.object({ ids: z.array(itemId).max(200, 'Too many bookmarks') });


export const searchQuery = z.object({
  q: singleLineText().trim().min(1, 'Required').max(100, 'Use at most 100 characters'),
  kind: z.enum(searchKinds).optional(),
  limit: z.coerce.number().int().min(1).max(50).default(20),
  offset: z.coerce.number().int().min(0).max(10_000).default(0),
});

/** `[start, end)` character offsets (UTF-16) of matched text, for highlighting. */
const spans = z.array(z.tuple([z.number().int(), z.number().int()]));

export const searchResult = z.object({
  /** The bookmark id when the thing can be bookmarked (`course:12`), otherwise `{kind}:{id}`. */
  id: z.string(),
  kind: z.enum(searchKinds),
  title: z.string(),
  /** Course of a session or a recording, teacher of a course, course of a student… */
  subtitle: z.string().nullable(),
  link: z.string(),
  icon: z.enum(navigationIcons),
  /** Higher is better. Results come a few of each kind at a time, courses first, each kind by rank (server: search.ts, perKind). */
  rank: z.number(),
  highlights: z.object({ title: spans, subtitle: spans }),
  isBookmarked: z.boolean(),
});
export type SearchResult = z.infer<typeof searchResult>;

export const searchData = z.object({
  query: z.string(),
  /** All matches the caller may see, before `limit` and `offset`. */
  total: z.number().int(),
  results: z.array(searchResult),
});
export type SearchData = z.infer<typeof searchData>;
