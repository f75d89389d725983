// The menu's bookmarks group, loaded only for someone who has bookmarks: a new account has none, and the
// group's drag and drop, keyboard moves and saving need not come with every signed-in first screen.
import { lazy, Suspense } from 'react';
import { useLayoutState } from '../../lib/layout-state';
import type { BookmarksMenuProps } from './bookmarks-menu';

const LoadedBookmarksMenu = lazy(async () => ({ default: (await import('./bookmarks-menu')).BookmarksMenu }));

export function BookmarksMenu(props: BookmarksMenuProps) {
  const any = useLayoutState((state) => state.bookmarks.length > 0);
  if (!any) return null;
  return (
    <Suspense fallback={null}>
      <LoadedBookmarksMenu {...props} />
    </Suspense>
  );
}
