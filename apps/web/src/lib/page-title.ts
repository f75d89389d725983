// What a page shown right now calls itself in the browser tab, when it knows better than its route
// (a course's name, a meeting's). app/document-title.tsx turns it into the tab's title.
import { useEffect, useSyncExternalStore } from 'react';

let pageTitle: string | undefined;
const listeners = new Set<() => void>();

function setPageTitle(title: string | undefined) {
  pageTitle = title;
  for (const listener of listeners) listener();
}

function subscribe(listener: () => void) {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** Names the tab after what the page shows, once it is known; the route's name otherwise. */
export function usePageTitle(title: string | undefined): void {
  useEffect(() => {
    setPageTitle(title || undefined);
    return () => setPageTitle(undefined);
  }, [title]);
}

/** The title the shown page set, if any. */
export function useShownPageTitle(): string | undefined {
  return useSyncExternalStore(subscribe, () => pageTitle);
}
