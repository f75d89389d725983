// The signed-in frame, shaped by the layout preferences: a vertical side menu or a
// horizontal top menu under the bar, a floating / sticky / static / hidden navbar, a static / sticky /
// hidden footer, boxed or full content. Phones always get the bar and the menu drawer: the bar holds
// the only button that opens the menu.
import '../../styles/mantine-more';
import { Burger, Container } from '@mantine/core';
import type { CSSProperties } from 'react';
import { useDisclosure } from '@mantine/hooks';
import { useMedia } from '../../lib/use-media';
import { Outlet } from 'react-router';
import { useTranslation } from 'react-i18next';
import { lazy, Suspense, useEffect, useRef } from 'react';
import { useBookmarksLoader } from '../../lib/bookmarks';
import { useAuthStore } from '../../lib/auth-store';
import { useLayoutPreferences } from '../../lib/layout-preferences';
import { useToastsBelow } from '../../lib/toasts';
import { Footer } from './footer';
import { FloatingTools } from './floating-tools';
import { frameOf } from './frame';
import { NavbarBar } from './navbar-bar';
import { SettingsDrawerHost } from './settings-panel';
import { useSearchDialog } from './search';
import { SideMenu } from './side-menu';
import { SideMenuBrand } from './side-menu-brand';
import { LeaveWhenSignedOut } from './use-session-end';
import classes from './layout.module.css';

/** The horizontal layout's menu, a preference: the default vertical layout never loads it. */
const TopMenu = lazy(async () => ({ default: (await import('./top-menu')).TopMenu }));

/** Mantine's rem(): pixels at the theme's scale. */
const rem = (px: number) => `calc(${px / 16}rem * var(--mantine-scale))`;
/** react-remove-scroll's class for fixed elements that must move with the scrollbar a modal hides. */
const keepClearOfScrollbar = 'right-scroll-bar-position';

export function AppLayout() {
  const { t } = useTranslation();
  const [mobileOpened, { toggle: toggleMobile, close: closeMobile }] = useDisclosure(false);
  const preferences = useLayoutPreferences();
  const isMobile = useMedia('(max-width: 47.99em)');
  const frame = frameOf(preferences, isMobile);
  // On a phone the side menu is off screen until the burger opens it: drawn then, not with the first screen.
  const menuOpenedOnce = useRef(false);
  if (mobileOpened) menuOpenedOnce.current = true;
  const drawMenu = !isMobile || menuOpenedOnce.current;
  const fetchProfile = useAuthStore((state) => state.fetchProfile);
  // The user stored at login is replaced by the profile once it is fetched.
  useEffect(() => {
    void fetchProfile();
  }, [fetchProfile]);
  useBookmarksLoader();
  const search = useSearchDialog();

  // The phone's menu button, in the bar (open or close) and in the open menu (close).
  const menuBurger = (onClick: () => void) => (
    <Burger opened={mobileOpened} onClick={onClick} hiddenFrom="sm" size="sm" aria-label={t('nav.toggleMenu')} />
  );
  const fluid = preferences.contentWidth === 'full';

  // What Mantine's AppShell did, in CSS of our own (layout.module.css): a fixed header beside a fixed
  // side menu that runs the whole height ("alt"), and the main column kept clear of both. AppShell
  // also brought react-remove-scroll for one class name, and its media-query engine, to every screen.
  const frameSize = {
    '--frame-header-height': rem(frame.headerHeight),
    '--frame-navbar-width': frame.horizontal ? '0rem' : rem(frame.collapsed ? 84 : 264),
  } as CSSProperties;
  // Toasts at the top would cover the account menu and search: they show below the header.
  useToastsBelow(rem(frame.headerHeight));

  return (
    <div
      className={classes.appShell}
      style={frameSize}
      data-testid="app-layout"
      data-layout={frame.horizontal ? 'horizontal' : 'vertical'}
      data-navbar-type={preferences.navbarType}
      data-footer-type={preferences.footerType}
    >
      <LeaveWhenSignedOut />
      <a className="mooz-skip-link" href="#main-content">
        {t('nav.skipToContent')}
      </a>
      {frame.headerHeight > 0 && (
        <header
          className={`${classes.shellHeader} ${classes.header} ${keepClearOfScrollbar}`}
          data-navbar-type={frame.navbarType}
          data-testid="navbar"
        >
          <Container fluid={fluid} size="xl" className={classes.headerContainer}>
            <div className={classes.bar}>
              {frame.showBar && (
                <NavbarBar
                  menuButton={menuBurger(toggleMobile)}
                  withLogo={frame.horizontal || isMobile}
                  onSearch={search.show}
                />
              )}
              {frame.horizontal && (
                // Its row's height is in the header's already: nothing moves when it arrives.
                <Suspense fallback={<div className={classes.topMenu} />}>
                  <TopMenu />
                </Suspense>
              )}
            </div>
          </Container>
        </header>
      )}
      {!frame.horizontal && (
        // A closed phone menu is only moved off screen: inert keeps its links out of the tab order.
        <nav className={`${classes.shellNavbar} ${classes.navbar}`} data-open={mobileOpened || undefined} inert={isMobile && !mobileOpened}>
          {drawMenu && (
            <>
              <SideMenuBrand collapsed={frame.collapsed} onNavigate={closeMobile} menuButton={menuBurger(closeMobile)} />
              <SideMenu collapsed={frame.collapsed} onNavigate={closeMobile} />
            </>
          )}
        </nav>
      )}
      <main id="main-content" tabIndex={-1} className={`${classes.shellMain} ${classes.main}`}>
        <Container fluid={fluid} size="xl" className={classes.content}>
          <Outlet />
        </Container>
        {preferences.footerType !== 'hidden' && (
          <div className={classes.footerFrame} data-footer-type={preferences.footerType}>
            <Container fluid={fluid} size="xl" w="100%">
              <Footer />
            </Container>
          </div>
        )}
      </main>
      {!frame.showBar && <FloatingTools onSearch={search.show} />}
      <SettingsDrawerHost />
      {search.dialog}
    </div>
  );
}
