// The search list's shape: entries grouped by kind under headings, in a fixed order, each with its
// place in the one flat order the arrow keys walk; and where the arrow keys go.
import { searchKinds, type SearchKind } from '@mooz/contract/navigation-lists';
import type { Span } from './highlight';

export type GroupKind = 'bookmark' | 'page' | SearchKind;
/**
 * Bookmarks (shown before anything is typed), courses, pages, then the server's other kinds: what is
 * searched for by name is most often a course, and Enter opens the first entry.
 */
const groupOrder: readonly GroupKind[] = ['bookmark', 'course', 'page', ...searchKinds.filter((kind) => kind !== 'course')];

export interface SearchEntry {
  /** Unique in the list: a bookmark id, a page id or the server's result id. */
  id: string;
  kind: GroupKind;
  title: string;
  subtitle: string | null;
  link: string;
  icon: string;
  highlights: { title: readonly Span[]; subtitle: readonly Span[] };
  /** A bookmark id when the entry can be starred from the list (pages, courses, bookmarks). */
  bookmarkId?: string;
}

interface SearchGroup {
  kind: GroupKind;
  entries: { entry: SearchEntry; index: number }[];
}

/** Entries grouped in `groupOrder`, each group keeping the order it was given (the server's rank). */
export function groupEntries(entries: readonly SearchEntry[]): SearchGroup[] {
  const groups: SearchGroup[] = [];
  let index = 0;
  for (const kind of groupOrder) {
    const ofKind = entries.filter((entry) => entry.kind === kind);
    if (ofKind.length === 0) continue;
    groups.push({ kind, entries: ofKind.map((entry) => ({ entry, index: index++ })) });
  }
  return groups;
}

/** The same entry only once (a page the server also returned, say), the first kept. */
export function uniqueEntries(entries: readonly SearchEntry[]): SearchEntry[] {
  const seen = new Set<string>();
  return entries.filter((entry) => !seen.has(entry.id) && Boolean(seen.add(entry.id)));
}

export type ListKey = 'ArrowDown' | 'ArrowUp' | 'Home' | 'End' | 'PageDown' | 'PageUp';
const pageStep = 5;

/**
 * Where the active entry moves on `key` in a list of `count` (-1: none active). The arrows wrap
 * around, as in most command palettes; Home, End and the page keys stop at the ends.
 */
export function stepActive(active: number, count: number, key: ListKey): number {
  if (count <= 0) return -1;
  const last = count - 1;
  switch (key) {
    case 'ArrowDown':
      return active < 0 || active >= last ? 0 : active + 1;
    case 'ArrowUp':
      return active <= 0 ? last : active - 1;
    case 'Home':
      return 0;
    case 'End':
      return last;
    case 'PageDown':
      return Math.min(last, Math.max(active, 0) + pageStep);
    case 'PageUp':
      return Math.max(0, active - pageStep);
  }
}

/** The active entry after the list changed: the same place if it still exists, else the first. */
export const keepActive = (active: number, count: number) =>
  count === 0 ? -1 : active >= 0 && active < count ? active : 0;
