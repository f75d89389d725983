// The signed-in frame (Mantine AppShell), shaped by the layout preferences: a vertical side menu or a
// horizontal top menu under the bar, a floating / sticky / static / hidden navbar, a static / sticky /
// hidden footer, boxed or full content. Phones always get the bar and the menu drawer: the bar holds
// the only button that opens the menu.
import '../../styles/mantine-more';
import { AppShell, Burger, Container } from '@mantine/core';
import { useDisclosure, useMediaQuery } from '@mantine/hooks';
import { Outlet } from 'react-router';
import { useTranslation } from 'react-i18next';
import { useEffect } from 'react';
import { useBookmarksLoader } from '../../lib/bookmarks';
import { useAuthStore } from '../../lib/auth-store';
import { useLayoutPreferences } from '../../lib/layout-preferences';
import { Footer } from './footer';
import { FloatingTools } from './floating-tools';
import { frameOf } from './frame';
import { NavbarBar } from './navbar-bar';
import { useSearchDialog } from './search';
import { SideMenu } from './side-menu';
import { SideMenuBrand } from './side-menu-brand';
import { TopMenu } from './top-menu';
import { useLeaveWhenSignedOut } from './use-session-end';
import classes from './layout.module.css';

export function AppLayout() {
  const { t } = useTranslation();
  const [mobileOpened, { toggle: toggleMobile, close: closeMobile }] = useDisclosure(false);
  const preferences = useLayoutPreferences();
  const isMobile = useMediaQuery('(max-width: 47.99em)') ?? false;
  const frame = frameOf(preferences, isMobile);
  const fetchProfile = useAuthStore((state) => state.fetchProfile);
  // The user stored at login is replaced by the profile once it is fetched.
  useEffect(() => {
    void fetchProfile();
  }, [fetchProfile]);
  useBookmarksLoader();
  useLeaveWhenSignedOut();
  const search = useSearchDialog();

  // The phone's menu button, in the bar (open or close) and in the open menu (close).
  const menuBurger = (onClick: () => void) => (
    <Burger opened={mobileOpened} onClick={onClick} hiddenFrom="sm" size="sm" aria-label={t('nav.toggleMenu')} />
  );
  const fluid = preferences.contentWidth === 'full';

  return (
    <AppShell
      header={frame.headerHeight > 0 ? { height: frame.headerHeight } : undefined}
      navbar={
        frame.horizontal
          ? undefined
          : { width: frame.collapsed ? 84 : 264, breakpoint: 'sm', collapsed: { mobile: !mobileOpened } }
      }
      layout="alt"
      padding={0}
      className={classes.appShell}
      data-testid="app-layout"
      data-layout={frame.horizontal ? 'horizontal' : 'vertical'}
      data-navbar-type={preferences.navbarType}
      data-footer-type={preferences.footerType}
    >
      <a className="mooz-skip-link" href="#main-content">
        {t('nav.skipToContent')}
      </a>
      {frame.headerHeight > 0 && (
        <AppShell.Header
          className={classes.header}
          withBorder={false}
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
              {frame.horizontal && <TopMenu />}
            </div>
          </Container>
        </AppShell.Header>
      )}
      {!frame.horizontal && (
        // A closed phone menu is only moved off screen: inert keeps its links out of the tab order.
        <AppShell.Navbar className={classes.navbar} withBorder={false} inert={isMobile && !mobileOpened}>
          <SideMenuBrand collapsed={frame.collapsed} onNavigate={closeMobile} menuButton={menuBurger(closeMobile)} />
          <SideMenu collapsed={frame.collapsed} onNavigate={closeMobile} />
        </AppShell.Navbar>
      )}
      <AppShell.Main id="main-content" tabIndex={-1} className={classes.main}>
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
      </AppShell.Main>
      {!frame.showBar && <FloatingTools onSearch={search.show} />}
      {search.dialog}
    </AppShell>
  );
}
