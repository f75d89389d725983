// The browser tab names the page in the user's language ("Courses · Mooz"). Each route names its
// page with `handle.titleKey`; a page that knows better (a course's name, a meeting's) says so with
// usePageTitle() from lib/page-title.ts, which wins while that page is shown.
import { useEffect } from 'react';
import { useMatches } from 'react-router';
import { useTranslation } from 'react-i18next';
import { onPageTitle, shownPageTitle } from '../lib/page-title';

export interface RouteHandle {
  /** The translation key of the page's name. */
  titleKey?: string;
}

export function DocumentTitle() {
  const { t } = useTranslation();
  const matches = useMatches();
  const titleKey = matches
    .map((match) => (match.handle as RouteHandle | undefined)?.titleKey)
    .filter(Boolean)
    .at(-1);
  // A tab's title is plain text: no direction isolates (lib/bidi.ts), which a tab would show.
  const plain = { postProcess: [] as string[] };
  const routeTitle = titleKey ? t(titleKey, plain) : undefined;
  // Written at once when a page names itself, not on a later render that a busy page may delay.
  useEffect(() => {
    const write = () => {
      const page = shownPageTitle() ?? routeTitle;
      document.title = page ? t('pageTitle.format', { ...plain, page }) : 'Mooz';
    };
    write();
    return onPageTitle(write);
  });
  return null;
}
