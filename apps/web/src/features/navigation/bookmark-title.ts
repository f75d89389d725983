import { useTranslation } from 'react-i18next';
import type { NavigationItem as Bookmark } from '@mooz/contract/navigation';
import { pageLabelKey } from '../../config/navigation';
import { plainLabel } from './highlight';

/** A bookmark's title: a page's in the user's language (`nav.{key}`), a course's as the server named it. */
export function useBookmarkTitle(): (bookmark: Pick<Bookmark, 'id' | 'title'>) => string {
  const { t } = useTranslation();
  return (bookmark) => {
    const key = pageLabelKey(bookmark.id);
    return key ? plainLabel(t(key)) : bookmark.title;
  };
}
