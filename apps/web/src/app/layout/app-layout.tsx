// The signed-in frame (Mantine AppShell): floating navbar, collapsible side menu, static footer.
import '../../styles/mantine-more';
import { AppShell, Box, Burger, Container, Group } from '@mantine/core';
import { useDisclosure, useMediaQuery } from '@mantine/hooks';
import { Link, Outlet } from 'react-router';
import { useTranslation } from 'react-i18next';
import { Logo } from '../../components/logo';
import { paths } from '../../config/paths';
import { useLayoutPreferences } from '../../lib/layout-preferences';
import { Footer } from './footer';
import { LanguageSwitcher } from './language-switcher';
import { SearchBox } from './search';
import { SettingsButton } from './settings-panel';
import { SideMenu } from './side-menu';
import { SkinToggle } from './skin-toggle';
import { UserMenu } from './user-menu';
import { TrialBadge } from './trial-badge';
import { useEffect } from 'react';
import { useAuthStore } from '../../lib/auth-store';
import classes from './layout.module.css';

export function AppLayout() {
  const { t } = useTranslation();
  const [mobileOpened, { toggle: toggleMobile, close: closeMobile }] = useDisclosure(false);
  const menuCollapsed = useLayoutPreferences((state) => state.menuCollapsed);
  const contentWidth = useLayoutPreferences((state) => state.contentWidth);
  const isMobile = useMediaQuery('(max-width: 47.99em)') ?? false;
  const collapsed = menuCollapsed && !isMobile;
  const fetchProfile = useAuthStore((state) => state.fetchProfile);
  // The user stored at login is replaced by the profile once it is fetched.
  useEffect(() => {
    void fetchProfile();
  }, [fetchProfile]);

  // The phone's menu button, in the bar (open or close) and in the open menu (close).
  const menuBurger = (onClick: () => void) => (
    <Burger opened={mobileOpened} onClick={onClick} hiddenFrom="sm" size="sm" aria-label={t('nav.toggleMenu')} />
  );

  return (
    <AppShell
      header={{ height: 76 }}
      navbar={{ width: collapsed ? 84 : 264, breakpoint: 'sm', collapsed: { mobile: !mobileOpened } }}
      layout="alt"
      padding={0}
      className={classes.appShell}
      data-testid="app-layout"
    >
      <a className="mooz-skip-link" href="#main-content">
        {t('nav.skipToContent')}
      </a>
      <AppShell.Header className={classes.header} withBorder={false}>
        <Container fluid={contentWidth === 'full'} size="xl" className={classes.headerContainer}>
          <div className={classes.floatingBar}>
            <Group gap="sm" wrap="nowrap">
              {menuBurger(toggleMobile)}
              {isMobile && (
                <Link to={paths.dashboard} className={classes.brandLink} aria-label={t('nav.home')}>
                  <Logo size={30} withWordmark={false} />
                </Link>
              )}
              <SearchBox />
            </Group>
            <Group gap={4} wrap="nowrap">
              <TrialBadge />
              <LanguageSwitcher />
              {/* A phone's bar keeps room for the trial countdown; the settings drawer has the skin too. */}
              <Box visibleFrom="xs">
                <SkinToggle />
              </Box>
              <SettingsButton />
              <UserMenu />
            </Group>
          </div>
        </Container>
      </AppShell.Header>
      <AppShell.Navbar className={classes.navbar} withBorder={false}>
        <Group className={classes.navbarBrand} justify={collapsed ? 'center' : 'space-between'} wrap="nowrap">
          <Link to={paths.dashboard} className={classes.brandLink} aria-label={t('nav.home')} onClick={closeMobile}>
            <Logo size={34} withWordmark={!collapsed} />
          </Link>
          {menuBurger(closeMobile)}
        </Group>
        <SideMenu collapsed={collapsed} onNavigate={closeMobile} />
      </AppShell.Navbar>
      <AppShell.Main id="main-content" tabIndex={-1} className={classes.main}>
        <Container fluid={contentWidth === 'full'} size="xl" className={classes.content}>
          <Outlet />
        </Container>
        <Container fluid={contentWidth === 'full'} size="xl" w="100%">
          <Footer />
        </Container>
      </AppShell.Main>
    </AppShell>
  );
}
