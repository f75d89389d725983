import type { ReactNode } from 'react';
import { Group } from '@mantine/core';
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import { Logo } from '../../components/logo';
import { paths } from '../../config/paths';
import classes from './layout.module.css';

/** The side menu's top: the logo, and on phones the button that closes the menu. */
export function SideMenuBrand({
  collapsed,
  onNavigate,
  menuButton,
}: {
  collapsed: boolean;
  onNavigate: () => void;
  menuButton: ReactNode;
}) {
  const { t } = useTranslation();
  return (
    <Group className={classes.navbarBrand} justify={collapsed ? 'center' : 'space-between'} wrap="nowrap">
      <Link to={paths.dashboard} className={classes.brandLink} aria-label={t('nav.home')} onClick={onNavigate}>
        <Logo size={34} withWordmark={!collapsed} />
      </Link>
      {menuButton}
    </Group>
  );
}
