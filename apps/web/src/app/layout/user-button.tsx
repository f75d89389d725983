// The navbar's account button (initials, name and role), the same before and after the menu behind it
// has loaded (user-menu.tsx). Its accessible name is what it shows, after "Account menu" for screen
// readers only, so that speech input can press it by the name on screen (WCAG 2.5.3).
import { forwardRef, type ComponentPropsWithoutRef } from 'react';
import { Group, Text, UnstyledButton, VisuallyHidden } from '@mantine/core';
import { IconChevronDown } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { useStoredUser } from '../../lib/use-stored-auth';
import classes from './layout.module.css';

function initialsOf(name: string): string {
  const parts = name.trim().split(/\s+/).filter(Boolean);
  return (
    parts.length > 1 ? `${parts[0]?.[0] ?? ''}${parts[parts.length - 1]?.[0] ?? ''}` : name.slice(0, 2)
  ).toUpperCase();
}

/** Who is signed in, as the button and the menu's heading name them. */
export function useSignedInPerson() {
  const { t } = useTranslation();
  const user = useStoredUser();
  const fullName = [user?.first_name, user?.last_name].filter(Boolean).join(' ') || user?.email || t('user.anonymous');
  return { user, fullName, role: user?.role ?? user?.user_type };
}

type Props = ComponentPropsWithoutRef<'button'> & { compact?: boolean };

export const UserButton = forwardRef<HTMLButtonElement, Props>(function UserButton({ compact = false, ...props }, ref) {
  const { t } = useTranslation();
  const { fullName, role } = useSignedInPerson();
  return (
    <UnstyledButton
      ref={ref}
      className={classes.userButton}
      data-testid="user-menu"
      {...props}
    >
      <Group gap="xs" wrap="nowrap">
        {/* Initials in a light disc, as Mantine's light Avatar drew them, without its image loader. The
            stylesheet draws them from data-initials: a picture of the person, not words of the name. */}
        <span className={classes.initials} data-initials={initialsOf(fullName)} aria-hidden="true" />
        <VisuallyHidden>{t('user.menu')}</VisuallyHidden>
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
  );
});
