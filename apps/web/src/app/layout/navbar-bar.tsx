// The navbar's row: the menu button (phones), the logo where no side menu shows it, the search box,
// and the trial, language, skin, settings and user controls.
import type { ReactNode } from 'react';
import { Box, Group } from '@mantine/core';
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import { Logo } from '../../components/logo';
import { NotificationsBell } from '../../features/notifications/notifications-bell';
import { paths } from '../../config/paths';
import { LanguageSwitcher } from './language-switcher';
import { SearchButton } from './search';
import { SettingsButton } from './settings-panel';
import { SkinToggle } from './skin-toggle';
import { TrialBadge } from './trial-badge';
import { UserMenu } from './user-menu';
import classes from './layout.module.css';

export function NavbarBar({
  menuButton,
  withLogo,
  onSearch,
}: {
  menuButton: ReactNode;
  withLogo: boolean;
  onSearch: () => void;
}) {
  const { t } = useTranslation();
  return (
    <div className={classes.barRow}>
      <Group gap="sm" wrap="nowrap" miw={0}>
        {menuButton}
        {withLogo && (
          <Link to={paths.dashboard} className={classes.brandLink} aria-label={t('nav.home')}>
            <Logo size={30} withWordmark={false} />
          </Link>
        )}
        <SearchButton onOpen={onSearch} />
      </Group>
      <Group gap={4} wrap="nowrap">
        <TrialBadge />
        <LanguageSwitcher />
        {/* A phone's bar keeps room for the trial countdown; the settings drawer has the skin too. */}
        <Box visibleFrom="xs">
          <SkinToggle />
        </Box>
        <SettingsButton />
        <NotificationsBell />
        <UserMenu />
      </Group>
    </div>
  );
}
