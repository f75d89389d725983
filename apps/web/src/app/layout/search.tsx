// The navbar search box: jumps to any page the user may open. Bookmarks (the layout state's
// bookmarks and suggestions lists, each suggestion with an isBookmarked flag) will add their own group
// here once the bookmarks API is wired.
import '@mantine/spotlight/styles.css';
import { Group, Kbd, Text, UnstyledButton } from '@mantine/core';
import { Spotlight, spotlight, type SpotlightActionData } from '@mantine/spotlight';
import { IconSearch } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { useAbility } from '../../lib/ability';
import { useStoredUser } from '../../lib/use-stored-auth';
import { descriptionKeyOf, visibleNavigation } from '../../config/navigation';
import classes from './layout.module.css';

export function SearchBox() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const ability = useAbility();
  const role = useStoredUser()?.user_type;
  const actions: SpotlightActionData[] = visibleNavigation((action, subject) => ability.can(action, subject)).map(
    (item) => {
      const Icon = item.icon;
      return {
        id: item.id,
        label: t(item.labelKey),
        description: t(descriptionKeyOf(item, role)),
        onClick: () => void navigate(item.path),
        leftSection: <Icon size={22} stroke={1.5} />,
      };
    },
  );

  return (
    <>
      <UnstyledButton
        className={classes.searchButton}
        onClick={spotlight.open}
        aria-label={t('search.open')}
        data-testid="search"
      >
        <Group gap="xs" wrap="nowrap">
          <IconSearch size={18} stroke={1.6} />
          <Text size="sm" c="dimmed" className={classes.searchPlaceholder}>
            {t('search.placeholder')}
          </Text>
          <Kbd size="xs" className={classes.searchPlaceholder}>
            Ctrl K
          </Kbd>
        </Group>
      </UnstyledButton>
      <Spotlight
        // The dialog's name, for screen readers only: the search field says the rest on screen.
        title={t('search.open')}
        classNames={{ header: 'mooz-visually-hidden' }}
        actions={actions}
        shortcut={['mod + K', '/']}
        nothingFound={t('search.nothingFound')}
        highlightQuery
        searchProps={{ leftSection: <IconSearch size={20} stroke={1.5} />, placeholder: t('search.placeholder') }}
      />
    </>
  );
}
