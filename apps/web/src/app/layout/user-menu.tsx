import { Avatar, Badge, Group, Menu, Text, UnstyledButton } from '@mantine/core';
import { IconChevronDown, IconLogout, IconUser } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { useStoredUser } from '../../lib/use-stored-auth';
import { useAuthStore } from '../../lib/auth-store';
import { paths } from '../../config/paths';
import classes from './layout.module.css';

function initialsOf(name: string): string {
  const parts = name.trim().split(/\s+/).filter(Boolean);
  return (
    parts.length > 1 ? `${parts[0]?.[0] ?? ''}${parts[parts.length - 1]?.[0] ?? ''}` : name.slice(0, 2)
  ).toUpperCase();
}

export function UserMenu({ compact = false }: { compact?: boolean }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const logOut = useAuthStore((state) => state.logout);
  const user = useStoredUser();
  const fullName = [user?.first_name, user?.last_name].filter(Boolean).join(' ') || user?.email || t('user.anonymous');
  const role = user?.role ?? user?.user_type;

  return (
    <Menu position="bottom-end" shadow="md" width={220} withinPortal>
      <Menu.Target>
        <UnstyledButton className={classes.userButton} aria-label={t('user.menu')} data-testid="user-menu">
          <Group gap="xs" wrap="nowrap">
            <Avatar radius="xl" color="mooz" variant="light" size={36}>
              {initialsOf(fullName)}
            </Avatar>
            {!compact && (
              <div className={classes.userText}>
                <Text size="sm" fw={600} lh={1.2} truncate>
                  {fullName}
                </Text>
                {role && (
                  <Text size="xs" c="dimmed" lh={1.2}>
                    {t(`user.role.${role}`)}
                  </Text>
                )}
              </div>
            )}
            {!compact && <IconChevronDown size={14} className={classes.userText} />}
          </Group>
        </UnstyledButton>
      </Menu.Target>
      <Menu.Dropdown>
        <Menu.Label>
          <Group justify="space-between" wrap="nowrap">
            <Text size="xs" truncate>
              {user?.email}
            </Text>
            {role && (
              <Badge size="xs" variant="light">
                {t(`user.role.${role}`)}
              </Badge>
            )}
          </Group>
        </Menu.Label>
        <Menu.Item component={Link} to={paths.profile} leftSection={<IconUser size={16} />}>
          {t('user.profile')}
        </Menu.Item>
        <Menu.Divider />
        {/* Mantine paints a red item with red 6, which reads at 3.3:1; the theme's red text reads in both skins. */}
        <Menu.Item
          color="red"
          c="var(--mantine-color-red-text)"
          leftSection={<IconLogout size={16} />}
          onClick={() => void logOut().then(() => navigate(paths.login, { replace: true }))}
          data-testid="logout"
        >
          {t('user.logout')}
        </Menu.Item>
      </Menu.Dropdown>
    </Menu>
  );
}
