// The account menu itself (Mantine's Menu and its floating layer), loaded when someone reaches for it
// (user-menu.tsx).
import '../../styles/mantine-more';
import { Badge, Group, Menu, Text } from '@mantine/core';
import { IconLogout, IconUser } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { useAuthStore } from '../../lib/auth-store';
import { paths } from '../../config/paths';
import { UserButton, useSignedInPerson } from './user-button';

export function OpenUserMenu({
  compact = false,
  autoFocus = false,
  defaultOpened = false,
}: {
  compact?: boolean;
  autoFocus?: boolean;
  defaultOpened?: boolean;
}) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const logOut = useAuthStore((state) => state.logout);
  const { user, role } = useSignedInPerson();

  return (
    <Menu position="bottom-end" shadow="md" width={220} withinPortal defaultOpened={defaultOpened}>
      <Menu.Target>
        <UserButton compact={compact} autoFocus={autoFocus} />
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
