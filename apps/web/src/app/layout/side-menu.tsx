// The side menu: one entry per area the user's rules let them read, in its group (learning, and the
// admin area for whoever the rules let in), then the user's bookmarks.
import { Stack, Text, UnstyledButton } from '@mantine/core';
import { useLocation } from 'react-router';
import { useTranslation } from 'react-i18next';
import { IconChevronsLeft, IconChevronsRight } from '@tabler/icons-react';
import { useAbility } from '../../lib/ability';
import { useLayoutPreferences } from '../../lib/layout-preferences';
import { isCurrentPage, visibleGroups } from '../../config/navigation';
import { BookmarksMenu } from '../../features/navigation/bookmarks-menu-lazy';
import { Hint } from '../../components/hint';
import { MenuLink } from '../../components/menu-link';
import classes from './layout.module.css';

const headingKeys = { learning: 'nav.sectionLearning', admin: 'nav.sectionAdmin' } as const;

export function SideMenu({ collapsed, onNavigate }: { collapsed: boolean; onNavigate?: () => void }) {
  const { t } = useTranslation();
  const ability = useAbility();
  const { pathname } = useLocation();
  const toggleMenuCollapsed = useLayoutPreferences((state) => state.toggleMenuCollapsed);
  // Right to left, the menu is on the right: its hints open toward the page, on its left.
  const rtl = useLayoutPreferences((state) => state.rtl);
  const groups = visibleGroups((action, subject) => ability.can(action, subject));

  return (
    <nav aria-label={t('nav.mainMenu')} className={classes.sideMenu}>
      {/* A plain scrolling box: Mantine's ScrollArea would bring its custom scrollbars to every screen. */}
      <div className={classes.sideMenuScroll}>
        {groups.map(({ group, items }) => (
          <div key={group} role="group" aria-label={t(headingKeys[group])} data-testid={`menu-group-${group}`}>
            {!collapsed && (
              <Text size="xs" fw={700} tt="uppercase" c="dimmed" px="sm" pt="xs" pb={6} className={classes.menuHeading}>
                {t(headingKeys[group])}
              </Text>
            )}
            <Stack gap={4} data-testid={group === 'learning' ? 'side-menu' : `side-menu-${group}`}>
              {items.map((item) => {
                const Icon = item.icon;
                const active = isCurrentPage(item, pathname);
                const link = (
                  <MenuLink
                    key={item.id}
                    to={item.path}
                    end
                    onClick={onNavigate}
                    label={collapsed ? undefined : t(item.labelKey)}
                    aria-label={collapsed ? t(item.labelKey) : undefined}
                    icon={<Icon size={21} stroke={1.6} />}
                    active={active}
                    variant="filled"
                    className={classes.menuLink}
                    data-collapsed={collapsed || undefined}
                    data-testid={`menu-${item.id}`}
                  />
                );
                return collapsed ? (
                  <Hint key={item.id} label={t(item.labelKey)} position={rtl ? 'left' : 'right'}>
                    {link}
                  </Hint>
                ) : (
                  link
                );
              })}
            </Stack>
          </div>
        ))}
        <BookmarksMenu
          orientation="vertical"
          collapsed={collapsed}
          onNavigate={onNavigate}
          linkClassName={classes.menuLink}
          headingClassName={classes.sideMenuHeading}
        />
      </div>
      <UnstyledButton
        className={classes.collapseButton}
        onClick={toggleMenuCollapsed}
        aria-label={collapsed ? t('nav.expandMenu') : t('nav.collapseMenu')}
        aria-pressed={collapsed}
        visibleFrom="sm"
      >
        {collapsed ? (
          <IconChevronsRight size={18} className={classes.flipInRtl} />
        ) : (
          <IconChevronsLeft size={18} className={classes.flipInRtl} />
        )}
        {!collapsed && <span>{t('nav.collapseMenu')}</span>}
      </UnstyledButton>
    </nav>
  );
}
