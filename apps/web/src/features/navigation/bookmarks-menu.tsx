// The navbar's "Bookmarks" group: the layout state's bookmarks, in the user's order, each a link with
// its icon and title. A bookmark moves by drag (native HTML5 drag and drop: no library to download)
// or, while it has focus, with Alt+arrow keys; the new place is announced and saved.
import { useEffect, useId, useRef, useState, type DragEvent, type KeyboardEvent } from 'react';
import { Text } from '@mantine/core';
import { IconStarFilled } from '@tabler/icons-react';
import { useLocation } from 'react-router';
import { useTranslation } from 'react-i18next';
import { iconOf } from '../../config/navigation-icons';
import { useLayoutPreferences } from '../../lib/layout-preferences';
import { useLayoutState } from '../../lib/layout-state';
import { useBookmarkTitle } from './bookmark-title';
import { dropped, stepOfKey, stepped, type Orientation } from './reorder';
import { useOrderBookmarks } from '../../lib/bookmark-changes';
import { Hint } from '../../components/hint';
import { MenuLink } from '../../components/menu-link';
import classes from './navigation.module.css';

export interface BookmarksMenuProps {
  orientation: Orientation;
  /** The side menu shows icons only. */
  collapsed?: boolean;
  onNavigate?: () => void;
  /** Classes of the menu the group sits in, so its links look like their neighbours. */
  linkClassName?: string;
  headingClassName?: string;
}

interface DropMark {
  id: string;
  after: boolean;
}

export function BookmarksMenu({ orientation, collapsed = false, onNavigate, linkClassName, headingClassName }: BookmarksMenuProps) {
  const { t } = useTranslation();
  const { pathname } = useLocation();
  const rtl = useLayoutPreferences((state) => state.rtl);
  const bookmarks = useLayoutState((state) => state.bookmarks);
  const titleOf = useBookmarkTitle();
  const order = useOrderBookmarks();
  const [dragging, setDragging] = useState<string | null>(null);
  const [dropMark, setDropMark] = useState<DropMark | null>(null);
  const [announcement, setAnnouncement] = useState('');
  const refocus = useRef<string | null>(null);
  const list = useRef<HTMLUListElement>(null);
  const hintId = useId();
  const headingId = useId();
  const horizontal = orientation === 'horizontal';
  const ids = bookmarks.map((bookmark) => bookmark.id);

  // A moved link is put back in the DOM, which can drop its focus: give it back.
  useEffect(() => {
    if (!refocus.current) return;
    list.current?.querySelector<HTMLElement>(`[data-bookmark-id="${CSS.escape(refocus.current)}"]`)?.focus();
    refocus.current = null;
  }, [bookmarks]);

  if (bookmarks.length === 0) return null;

  const save = (next: string[], moved: string) => {
    refocus.current = moved;
    order.mutate(next);
    const bookmark = bookmarks.find((one) => one.id === moved);
    if (bookmark) {
      setAnnouncement(
        t('bookmarks.moved', { title: titleOf(bookmark), position: next.indexOf(moved) + 1, count: next.length }),
      );
    }
  };

  const onKeyDown = (event: KeyboardEvent<HTMLElement>, id: string) => {
    const step = stepOfKey(event.key, event.altKey, orientation, rtl);
    if (step === 0) return;
    // Alt+Left is the browser's Back: a bookmark's own keys win while it has focus.
    event.preventDefault();
    const next = stepped(ids, id, step);
    if (next) save(next, id);
  };

  const dropPlace = (event: DragEvent<HTMLElement>, id: string): DropMark => {
    const box = event.currentTarget.getBoundingClientRect();
    const after = horizontal
      ? event.clientX > box.left + box.width / 2 !== rtl
      : event.clientY > box.top + box.height / 2;
    return { id, after };
  };

  return (
    <div
      className={horizontal ? undefined : classes.bookmarksGroup}
      data-collapsed={collapsed || undefined}
      data-testid="bookmarks-menu"
    >
      {!collapsed && (
        <Text
          id={headingId}
          size="xs"
          fw={700}
          tt="uppercase"
          c="dimmed"
          className={`${classes.bookmarksHeading} ${headingClassName ?? ''}`}
        >
          <IconStarFilled size={12} aria-hidden="true" />
          {t('bookmarks.title')}
        </Text>
      )}
      <ul
        ref={list}
        className={classes.bookmarkList}
        data-horizontal={horizontal || undefined}
        aria-labelledby={collapsed ? undefined : headingId}
        aria-label={collapsed ? t('bookmarks.title') : undefined}
      >
        {bookmarks.map((bookmark) => {
          const Icon = iconOf(bookmark.icon);
          const title = titleOf(bookmark);
          const active = pathname === bookmark.link;
          const link = (
            <MenuLink
              to={bookmark.link}
              onClick={onNavigate}
              label={collapsed ? undefined : title}
              aria-label={collapsed ? title : undefined}
              aria-describedby={hintId}
              icon={<Icon size={horizontal ? 18 : 21} stroke={1.6} />}
              active={active}
              variant="light"
              className={linkClassName}
              data-collapsed={collapsed || undefined}
              data-bookmark-id={bookmark.id}
              data-testid="bookmark-link"
              draggable
              onKeyDown={(event: KeyboardEvent<HTMLAnchorElement>) => onKeyDown(event, bookmark.id)}
              onDragStart={(event: DragEvent<HTMLAnchorElement>) => {
                event.dataTransfer.effectAllowed = 'move';
                event.dataTransfer.setData('text/plain', bookmark.link);
                setDragging(bookmark.id);
              }}
              onDragEnd={() => {
                setDragging(null);
                setDropMark(null);
              }}
            />
          );
          return (
            <li
              key={bookmark.id}
              className={classes.bookmarkItem}
              data-dragging={dragging === bookmark.id || undefined}
              data-drop-before={(dropMark?.id === bookmark.id && !dropMark.after) || undefined}
              data-drop-after={(dropMark?.id === bookmark.id && dropMark.after) || undefined}
              onDragOver={(event) => {
                if (!dragging) return;
                event.preventDefault();
                event.dataTransfer.dropEffect = 'move';
                const mark = dropPlace(event, bookmark.id);
                if (mark.id !== dropMark?.id || mark.after !== dropMark.after) setDropMark(mark);
              }}
              onDrop={(event) => {
                if (!dragging) return;
                event.preventDefault();
                const next = dropped(ids, dragging, bookmark.id, dropPlace(event, bookmark.id).after);
                if (next) save(next, dragging);
                setDragging(null);
                setDropMark(null);
              }}
            >
              {collapsed ? (
                <Hint label={title} position={rtl ? 'left' : 'right'}>
                  {link}
                </Hint>
              ) : (
                link
              )}
            </li>
          );
        })}
      </ul>
      <span id={hintId} className="mooz-visually-hidden">
        {t(horizontal ? 'bookmarks.moveHintRow' : 'bookmarks.moveHint')}
      </span>
      <span className="mooz-visually-hidden" aria-live="polite" data-testid="bookmarks-announcement">
        {announcement}
      </span>
    </div>
  );
}
