// The star on a course (or any bookmarkable thing's) page: pressed when bookmarked. It changes only
// once the server confirms; while it waits it shows a spinner, and a failure leaves it as it was with
// a toast.
import { ActionIcon, Tooltip } from '@mantine/core';
import { IconStar, IconStarFilled } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { useIsBookmarked } from '../lib/layout-state';
import { useToggleBookmark } from '../lib/bookmark-changes';

export function BookmarkStar({ id, title }: { id: string; title: string }) {
  const { t } = useTranslation();
  const starred = useIsBookmarked(id);
  const toggle = useToggleBookmark();
  // A toggle keeps one name; aria-pressed says whether it is on.
  const label = t('bookmarks.toggleNamed', { title });
  return (
    <Tooltip label={starred ? t('bookmarks.remove') : t('bookmarks.add')} withArrow>
      <ActionIcon
        variant={starred ? 'light' : 'subtle'}
        color={starred ? 'yellow' : 'gray'}
        size="xl"
        radius="xl"
        aria-pressed={starred}
        aria-label={label}
        loading={toggle.isPending}
        onClick={() => toggle.mutate(id)}
        data-testid="bookmark-star"
      >
        {starred ? <IconStarFilled size={22} /> : <IconStar size={22} stroke={1.6} />}
      </ActionIcon>
    </Tooltip>
  );
}
