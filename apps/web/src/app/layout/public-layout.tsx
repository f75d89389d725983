// The frame of pages for visitors who are not signed in: a light top bar, no side menu.
import { Group } from '@mantine/core';
import { Link, Outlet } from 'react-router';
import { useTranslation } from 'react-i18next';
import { Logo } from '../../components/logo';
import { paths } from '../../config/paths';
import { LanguageSwitcher } from './language-switcher';
import { SettingsButton, SettingsDrawerHost } from './settings-panel';
import { SkinToggle } from './skin-toggle';
import { Footer } from './footer';
import classes from './layout.module.css';

export function PublicLayout() {
  const { t } = useTranslation();
  return (
    <div className={classes.publicShell}>
      <a className="mooz-skip-link" href="#main-content">
        {t('nav.skipToContent')}
      </a>
      <header className={classes.publicHeader}>
        <Link to={paths.home} className={classes.brandLink} aria-label={t('nav.home')}>
          <Logo size={34} />
        </Link>
        <Group gap={4} wrap="nowrap">
          <LanguageSwitcher />
          <SkinToggle />
          <SettingsButton />
        </Group>
      </header>
      <main id="main-content" tabIndex={-1} className={classes.publicMain}>
        <Outlet />
      </main>
      <Footer />
      <SettingsDrawerHost />
    </div>
  );
}
