// Bookmarks: what a user may bookmark (visibility.ts: pages and courses), what they bookmarked, in
// their own order. Stored per user by item id (`page:courses`, `course:12`); a bookmark whose course the
// user can no longer see is kept but not shown, and comes back if the course does.
import { sql } from 'drizzle-orm';
import { courseItemId, type BookmarksData, type NavigationItem } from '@mooz/contract/navigation';
import type { Database } from '../../db/client';
import { invalidField, notFound } from '../../http/errors';
import { courseLink, courseVisible, pagesFor, type Caller } from './visibility';

const rowsOf = <T>(result: unknown) => (result as { rows: T[] }).rows;

export function createBookmarksService({ db }: { db: Database }) {
  async function visibleCourses(caller: Caller, onlyId?: number) {
    const result = await db.execute(sql`
      select c.id, c.name from courses c
      where ${courseVisible(caller)} ${onlyId === undefined ? sql`` : sql`and c.id = ${onlyId}`}
      order by c.name, c.id`);
    return rowsOf<{ id: number; name: string }>(result);
  }

  /** The caller's stored bookmarks, in their order (shown or not). */
  async function stored(caller: Caller): Promise<string[]> {
    const result = await db.execute(sql`select item_id from bookmarks where user_id = ${caller.id} order by position, created_at, item_id`);
    return rowsOf<{ item_id: string }>(result).map((r) => r.item_id);
  }

  async function data(caller: Caller): Promise<BookmarksData> {
    const [courses, marked] = await Promise.all([visibleCourses(caller), stored(caller)]);
    const order = new Map(marked.map((id, index) => [id, index]));
    const item = (id: string, title: string, link: string, icon: NavigationItem['icon']): NavigationItem => ({
      id,
      title,
      link,
      icon,
      isBookmarked: order.has(id),
    });
    const suggestions = [
      ...pagesFor(caller).map((page) => item(page.id, page.title, page.link, page.icon)),
      ...courses.map((course) => item(courseItemId(course.id), course.name, courseLink(course.id), 'book')),
    ];
    const bookmarks = suggestions.filter((s) => s.isBookmarked).sort((a, b) => order.get(a.id)! - order.get(b.id)!);
    return { suggestions, bookmarks };
  }

  /** Whether `id` is one of the caller's suggestions, without listing them all. */
  async function isSuggestion(caller: Caller, id: string): Promise<boolean> {
    if (pagesFor(caller).some((page) => page.id === id)) return true;
    const course = /^course:([1-9]\d{0,9})$/.exec(id);
    if (!course || Number(course[1]) > 2_147_483_647) return false;
    return (await visibleCourses(caller, Number(course[1]))).length > 0;
  }

  return {
    data: async (caller: Caller) => ({ data: await data(caller) }),

    /** Adds the suggestion at the end of the caller's bookmarks, or removes it. */
    async toggle(caller: Caller, id: string): Promise<{ data: BookmarksData }> {
      if (!(await isSuggestion(caller, id))) throw notFound();
      await db.transaction(async (tx) => {
        const removed = await tx.execute(sql`delete from bookmarks where user_id = ${caller.id} and item_id = ${id} returning item_id`);
        if (rowsOf(removed).length) return;
        await tx.execute(sql`
          insert into bookmarks (user_id, item_id, position)
          select ${caller.id}, ${id}, coalesce(max(position), 0) + 1 from bookmarks where user_id = ${caller.id}
          on conflict do nothing`);
      });
      return { data: await data(caller) };
    },

    /** `ids` is the caller's shown bookmarks in a new order; hidden ones keep their order after them. */
    async reorder(caller: Caller, ids: string[]): Promise<{ data: BookmarksData }> {
      const shown = (await data(caller)).bookmarks.map((b) => b.id);
      const given = new Set(ids);
      if (given.size !== ids.length || ids.length !== shown.length || shown.some((id) => !given.has(id))) {
        throw invalidField('ids', 'List each of your bookmarks exactly once, and nothing else');
      }
      const hidden = (await stored(caller)).filter((id) => !given.has(id));
      const order = [...ids, ...hidden];
      if (order.length) {
        const list = sql.join(
          order.map((id) => sql`${id}`),
          sql`, `,
        );
        await db.execute(sql`
          update bookmarks set position = o.ord
          from unnest(array[${list}]::text[]) with ordinality as o(item_id, ord)
          where bookmarks.user_id = ${caller.id} and bookmarks.item_id = o.item_id`);
      }
      return { data: await data(caller) };
    },
  };
}

export type BookmarksService = ReturnType<typeof createBookmarksService>;
