// Bookmarks, server side: GET /api/bookmarks/data once signed in, its lists replacing the layout
// state's. Starring and moving them is in bookmark-changes.ts, loaded by what offers those.
import { useEffect } from 'react';
import { useQuery } from '@tanstack/react-query';
import { apiRoutes } from '@mooz/contract/api-routes';
import { call } from './api';
import { useLayoutState } from './layout-state';
import { useStoredUser } from './use-stored-auth';

/** Per user, so a second account in the same tab never sees the first one's lists. */
const bookmarkKeys = { data: (user: unknown) => ['bookmarks', user] as const };

/** Loads the bookmarks into the layout state; mounted once, by the signed-in frame. */
export function useBookmarksLoader(): void {
  const user = useStoredUser();
  // The email is there from the login on; the id only once the profile has been fetched.
  const userKey = user?.email ?? user?.id ?? null;
  const loaded = useLayoutState((state) => state.bookmarksLoaded);
  const forget = useLayoutState((state) => state.bookmarksForgotten);
  const query = useQuery({
    queryKey: bookmarkKeys.data(userKey),
    queryFn: ({ signal }) => call(apiRoutes.bookmarks.data, { signal }),
    enabled: userKey !== null,
  });
  useEffect(() => {
    // Another account (or none): nothing of the previous one's stays on screen.
    forget();
  }, [userKey, forget]);
  useEffect(() => {
    if (query.data) loaded(query.data.data);
  }, [query.data, loaded]);
}
