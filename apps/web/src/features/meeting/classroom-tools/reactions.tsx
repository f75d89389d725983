// Reactions: a button with the short set, and the reaction floating over a tile for a few seconds.
import { ActionIcon, Group, Popover, UnstyledButton } from '@mantine/core';
import { IconMoodSmile } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { reactions, type Reaction } from '@mooz/contract/classroom-tools';
import { Hint } from '../../../components/hint';
import { useMeetingStore } from '../meeting-store';
import { sendReaction, useClassroomTools } from './tools-link';
import classes from './classroom-tools.module.css';
import meetingClasses from '../meeting.module.css';

/** Each reaction's name, for screen readers and the button's title. */
const names: Record<Reaction, string> = {
  '👍': 'meeting.reactions.thumbsUp',
  '👏': 'meeting.reactions.clap',
  '😂': 'meeting.reactions.laugh',
  '❤️': 'meeting.reactions.heart',
  '😮': 'meeting.reactions.surprised',
  '❓': 'meeting.reactions.question',
};

export function ReactionButton({ size }: { size: number }) {
  const { t } = useTranslation();
  const [opened, setOpened] = useState(false);
  return (
    <Popover opened={opened} onChange={setOpened} position="top" withArrow shadow="md" trapFocus returnFocus>
      <Popover.Target>
        <Hint label={t('meeting.reactions.button')}>
          <ActionIcon
            size={size}
            radius="xl"
            variant="default"
            className={meetingClasses.control}
            aria-label={t('meeting.reactions.button')}
            aria-expanded={opened}
            onClick={() => setOpened((open) => !open)}
            data-testid="reactions-button"
          >
            <IconMoodSmile size={22} />
          </ActionIcon>
        </Hint>
      </Popover.Target>
      <Popover.Dropdown p={6}>
        <Group gap={2} wrap="nowrap" role="group" aria-label={t('meeting.reactions.button')}>
          {reactions.map((reaction) => (
            <UnstyledButton
              key={reaction}
              className={classes.reactionChoice}
              aria-label={t(names[reaction])}
              title={t(names[reaction])}
              onClick={() => {
                sendReaction(reaction);
                setOpened(false);
              }}
              data-testid="reaction-choice"
              data-reaction={reaction}
            >
              <span aria-hidden>{reaction}</span>
            </UnstyledButton>
          ))}
        </Group>
      </Popover.Dropdown>
    </Popover>
  );
}

/** The reaction of `peerId` (this tab's own when none is given) now, floating over its tile. */
export function ReactionFloat({ peerId, name }: { peerId?: string; name: string }) {
  const { t } = useTranslation();
  const own = useMeetingStore((state) => state.peerId);
  const shown = useClassroomTools((state) => state.reactions[peerId ?? own]);
  if (!shown) return null;
  return (
    <span key={shown.key} className={classes.reactionFloat} role="img" aria-label={t('meeting.reactions.reacted', { name, reaction: t(names[shown.reaction]) })} data-testid="tile-reaction" data-reaction={shown.reaction}>
      {shown.reaction}
    </span>
  );
}
