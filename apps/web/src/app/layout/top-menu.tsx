// The horizontal layout's menu: the areas the user's rules open, then the bookmarks, in one row under
// the bar. A row too long for the screen scrolls sideways: a focused link scrolls itself into view, a
// finger swipes, and a pointer has a chevron at each edge with more behind it (faded there).
import { useCallback, useEffect, useRef, useState } from 'react';
import { Divider } from '@mantine/core';
import { IconChevronLeft, IconChevronRight } from '@tabler/icons-react';
import { useLocation } from 'react-router';
import { useTranslation } from 'react-i18next';
import { useAbility } from '../../lib/ability';
import { isCurrentPage, visibleNavigation } from '../../config/navigation';
import { BookmarksMenu } from '../../features/navigation/bookmarks-menu-lazy';
import { useLayoutState } from '../../lib/layout-state';
import { MenuLink } from '../../components/menu-link';
import classes from './layout.module.css';

export function TopMenu() {
  const { t } = useTranslation();
  const ability = useAbility();
  const { pathname } = useLocation();
  const items = visibleNavigation((action, subject) => ability.can(action, subject));
  const bookmarkCount = useLayoutState((state) => state.bookmarks.length);
  const viewport = useRef<HTMLDivElement>(null);
  const [more, setMore] = useState({ start: false, end: false });
  // Measured from the start edge, which is the right one right to left (scrollLeft then runs negative).
  const measure = useCallback(() => {
    const element = viewport.current;
    if (!element) return;
    const scrolled = Math.abs(element.scrollLeft);
    const next = { start: scrolled > 1, end: scrolled + element.clientWidth < element.scrollWidth - 1 };
    setMore((current) => (current.start === next.start && current.end === next.end ? current : next));
  }, []);
  useEffect(() => {
    measure();
    const element = viewport.current;
    if (!element) return;
    const observer = new ResizeObserver(measure);
    observer.observe(element);
    if (element.firstElementChild) observer.observe(element.firstElementChild);
    return () => observer.disconnect();
  }, [measure, bookmarkCount, items.length]);
  const scrollBy = (towardsEnd: boolean) => {
    const element = viewport.current;
    if (!element) return;
    const rtl = getComputedStyle(element).direction === 'rtl';
    element.scrollBy({ left: (towardsEnd !== rtl ? 1 : -1) * element.clientWidth * 0.6, behavior: 'smooth' });
  };
  return (
    <nav
      aria-label={t('nav.mainMenu')}
      className={classes.topMenu}
      data-more-start={more.start || undefined}
      data-more-end={more.end || undefined}
      data-testid="top-menu"
    >
      {/* For the pointer only: the keyboard reaches every link with Tab. */}
      <div aria-hidden="true" className={classes.topMenuMore} data-edge="start" onClick={() => scrollBy(false)}>
        <IconChevronLeft size={18} className={classes.flipInRtl} />
      </div>
      <div aria-hidden="true" className={classes.topMenuMore} data-edge="end" onClick={() => scrollBy(true)}>
        <IconChevronRight size={18} className={classes.flipInRtl} />
      </div>
      <div ref={viewport} onScroll={measure} className={classes.topMenuScroll}>
        <div className={classes.topMenuRow}>
          <ul className={classes.topMenuList}>
            {items.map((item) => {
              const Icon = item.icon;
              return (
                <li key={item.id}>
                  <MenuLink
                    to={item.path}
                    label={t(item.labelKey)}
                    icon={<Icon size={18} stroke={1.6} />}
                    active={isCurrentPage(item, pathname)}
                    variant="filled"
                    className={classes.topLink}
                    data-testid={`menu-${item.id}`}
                  />
                </li>
              );
            })}
          </ul>
          {bookmarkCount > 0 && <Divider orientation="vertical" className={classes.topMenuDivider} />}
          <BookmarksMenu
            orientation="horizontal"
            linkClassName={classes.topLink}
            headingClassName={classes.topMenuHeading}
          />
        </div>
      </div>
    </nav>
  );
}
