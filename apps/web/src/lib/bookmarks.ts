// Bookmarks, server side: GET /api/bookmarks/data once signed in (its lists replace the layout
// state's), POST /api/bookmarks/update to star or unstar (the layout state flips the item only when
// the server confirms), POST /api/bookmarks/order after a drag or a keyboard move.
import { useEffect } from 'react';
import { useMutation, useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { apiRoutes } from '@mooz/contract/api-routes';
import { call, messageOf } from './api';
import { useLayoutState } from './layout-state';
import { translateServerMessage } from './server-message';
import { notify } from './toasts';
import { useStoredUser } from './use-stored-auth';

/** Per user, so a second account in the same tab never sees the first one's lists. */
export const bookmarkKeys = { data: (user: unknown) => ['bookmarks', user] as const };

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

function useFailureToast() {
  const { t } = useTranslation();
  return (error: unknown) =>
    notify.error(translateServerMessage(t, messageOf(error, t('bookmarks.saveFailed'))), { id: 'bookmark-error' });
}

/** Star or unstar `id`: the layout state changes when the server has answered, never before. */
export function useToggleBookmark() {
  const toggled = useLayoutState((state) => state.bookmarkToggled);
  const loaded = useLayoutState((state) => state.bookmarksLoaded);
  const failed = useFailureToast();
  return useMutation({
    mutationFn: (id: string) => call(apiRoutes.bookmarks.update, { body: { id } }),
    onSuccess: (response, id) => {
      toggled(id);
      // The server answers its fresh lists too: they are the truth from here on.
      if (response?.data) loaded(response.data);
    },
    onError: failed,
  });
}

/** Shows the new order at once (a drag must not snap back) and puts the old one back if the server refuses. */
export function useOrderBookmarks() {
  const ordered = useLayoutState((state) => state.bookmarksOrdered);
  const loaded = useLayoutState((state) => state.bookmarksLoaded);
  const failed = useFailureToast();
  return useMutation({
    mutationFn: (ids: string[]) => call(apiRoutes.bookmarks.order, { body: { ids } }),
    onMutate: (ids) => {
      const before = useLayoutState.getState().bookmarks.map((item) => item.id);
      ordered(ids);
      return { before };
    },
    onSuccess: (response) => {
      if (response?.data) loaded(response.data);
    },
    onError: (error, _ids, context) => {
      if (context) ordered(context.before);
      failed(error);
    },
  });
}
