// Bookmarks changed: POST /api/bookmarks/update to star or unstar (the layout state flips the item only
// when the server confirms), POST /api/bookmarks/order after a drag or a keyboard move. Apart from the
// loader (bookmarks.ts), so the signed-in frame does not bring TanStack's mutations to every screen.
import { useMutation } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { apiRoutes } from '@mooz/contract/api-routes';
import { call, messageOf } from './api';
import { useLayoutState } from './layout-state';
import { translateServerMessage } from './server-message';
import { notify } from './toasts';

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
