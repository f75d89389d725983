// What a page shown right now calls itself in the browser tab, when it knows better than its route
// (a course's name, a meeting's). app/document-title.tsx turns it into the tab's title.
import { useEffect } from 'react';

/** The titles of the pages that named themselves, newest last: a page leaving late does not clear a newer one's. */
const named: { title: string }[] = [];
const listeners = new Set<() => void>();

function changed() {
  for (const listener of listeners) listener();
}

/** Names the tab after what the page shows, once it is known; the route's name otherwise. */
export function usePageTitle(title: string | undefined): void {
  useEffect(() => {
    if (!title) return;
    const entry = { title };
    named.push(entry);
    changed();
    return () => {
      named.splice(named.indexOf(entry), 1);
      changed();
    };
  }, [title]);
}

/** The title the shown page set, if any. */
export function shownPageTitle(): string | undefined {
  return named.at(-1)?.title;
}

/** Calls `listener` whenever the shown page's title changes; returns the unsubscribe. */
export function onPageTitle(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}
