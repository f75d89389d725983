// What the search list shows for the layout state's query: the app's pages the user's rules open,
// matched here on their translated labels, and the server's results (GET /api/search/), asked for
// once typing pauses, the previous request cancelled when the query changes.
import { useMemo } from 'react';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useDebouncedValue } from '@mantine/hooks';
import { useTranslation } from 'react-i18next';
import { apiRoutes } from '@mooz/contract/api-routes';
import type { SearchResult } from '@mooz/contract/navigation';
import { call } from '../../lib/api';
import { useAbility } from '../../lib/ability';
import { useLayoutState } from '../../lib/layout-state';
import { useStoredUser } from '../../lib/use-stored-auth';
import { descriptionKeyOf, visiblePages } from '../../config/navigation';
import { useBookmarkTitle } from './bookmark-title';
import { matchWords, plainLabel } from './highlight';
import { uniqueEntries, type SearchEntry } from './search-list';

/** Typing pauses this long before the server is asked. */
const searchDebounceMs = 200;
/** Fewer characters than this only search the pages. */
const serverSearchMinLength = 2;
const serverLimit = 20;

const fromResult = (result: SearchResult): SearchEntry => ({
  id: result.id,
  kind: result.kind,
  title: result.title,
  subtitle: result.subtitle,
  link: result.link,
  icon: result.icon,
  highlights: result.highlights,
  bookmarkId: result.kind === 'course' ? result.id : undefined,
});

export function useSearch() {
  const { t } = useTranslation();
  const ability = useAbility();
  const role = useStoredUser()?.user_type;
  const query = useLayoutState((state) => state.query);
  const bookmarks = useLayoutState((state) => state.bookmarks);
  const titleOf = useBookmarkTitle();
  const trimmed = query.trim();
  const [debounced] = useDebouncedValue(trimmed, searchDebounceMs);
  const asksServer = debounced.length >= serverSearchMinLength;

  const server = useQuery({
    queryKey: ['search', debounced],
    // The signal cancels the request when the query changes before it answers.
    queryFn: ({ signal }) => call(apiRoutes.search.query, { query: { q: debounced, limit: serverLimit }, signal }),
    enabled: asksServer,
    placeholderData: keepPreviousData,
    staleTime: 10_000,
    retry: false,
  });

  const pages = useMemo<SearchEntry[]>(
    () =>
      visiblePages((action, subject) => ability.can(action, subject)).flatMap((item) => {
        const title = plainLabel(t(item.labelKey));
        const subtitle = plainLabel(t(descriptionKeyOf(item, role)));
        const spans = trimmed ? matchWords(title, trimmed) : [];
        if (!spans) return [];
        return [
          {
            id: item.pageId,
            kind: 'page' as const,
            title,
            subtitle,
            link: item.path,
            icon: item.iconName,
            highlights: { title: spans, subtitle: [] },
            bookmarkId: item.pageId,
          },
        ];
      }),
    [ability, t, role, trimmed],
  );

  const entries = useMemo<SearchEntry[]>(() => {
    if (!trimmed) {
      // Before anything is typed: the bookmarks, then every page.
      const starred = bookmarks.map((bookmark): SearchEntry => ({
        id: `bookmark:${bookmark.id}`,
        kind: 'bookmark',
        title: titleOf(bookmark),
        subtitle: null,
        link: bookmark.link,
        icon: bookmark.icon,
        highlights: { title: [], subtitle: [] },
        bookmarkId: bookmark.id,
      }));
      return [...starred, ...pages];
    }
    // Only results of what is typed now: an older query's must not be opened by an Enter.
    const current = asksServer && server.data && !server.isPlaceholderData && debounced === trimmed;
    const results = current ? server.data.data.results : [];
    return uniqueEntries([...pages, ...results.map(fromResult)]);
    // titleOf changes with the language, as `pages` does.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [trimmed, bookmarks, pages, asksServer, server.data, server.isPlaceholderData, debounced]);

  const waiting = trimmed.length >= serverSearchMinLength && (debounced !== trimmed || server.isFetching);
  return {
    query,
    trimmed,
    entries,
    total: asksServer ? (server.data?.data.total ?? 0) : 0,
    loading: waiting,
    error: asksServer && server.isError && !server.isFetching ? server.error : null,
    retry: () => void server.refetch(),
  };
}
