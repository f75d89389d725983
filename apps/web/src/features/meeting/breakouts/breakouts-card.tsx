// Breakout rooms over the stage. A host sees every group with its people, visits any of them, places
// whoever is in no group, writes to all groups at once and brings everyone back. A student whose split
// lets them choose picks a group here; in a group, the header's badge says which and for how long.
import { useState } from 'react';
import { Badge, Button, CloseButton, Group, Paper, Select, Stack, Text, TextInput } from '@mantine/core';
import { IconArrowBackUp, IconDoorEnter, IconSend, IconUsersGroup } from '@tabler/icons-react';
import { useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import { parseGroupRoomId, type BreakoutView } from '@mooz/contract/breakouts';
import { limits } from '@mooz/contract/limits';
import { paths } from '../../../config/paths';
import { useStoredUser } from '../../../lib/use-stored-auth';
import { useMeetingStore } from '../meeting-store';
import { amHost, useRoomControls } from '../services/room-controls';
import { clock, useSecondsLeft } from '../classroom-tools/seconds-left';
import classes from '../classroom-tools/classroom-tools.module.css';
import meetingClasses from '../meeting.module.css';
import { useGroupName } from './breakout-form';
import { broadcastToGroups, chooseGroup, closeBreakouts, moveToGroup, openSplit, useBreakouts } from './breakouts-link';

/** The split while it is open here (not closed, not past its time). */
function useOpenSplit(): BreakoutView | null {
  const split = useBreakouts((state) => state.split);
  const timeUp = useBreakouts((state) => state.timeUp);
  return openSplit({ split, timeUp });
}

function TimeLeft({ split }: { split: BreakoutView }) {
  const left = useSecondsLeft(split.endsAt);
  if (left === null) return null;
  return (
    <Badge size="sm" color={left <= 60 ? 'red' : 'orange'} variant="light" data-testid="breakouts-countdown">
      <span dir="ltr">{clock(left)}</span>
    </Badge>
  );
}

/** In a group: which one, and how long is left. */
export function BreakoutBadge() {
  const split = useOpenSplit();
  const roomId = useMeetingStore((state) => state.roomId) ?? '';
  const groupName = useGroupName();
  const group = parseGroupRoomId(roomId);
  if (!split || !group || group.breakoutId !== split.id) return null;
  return (
    <Group gap={6} wrap="nowrap" style={{ flexShrink: 0 }}>
      <Badge color="grape.8" autoContrast leftSection={<IconUsersGroup size={12} aria-hidden />} data-testid="breakout-badge">
        {groupName(group.group)}
      </Badge>
      <TimeLeft split={split} />
    </Group>
  );
}

function Broadcast() {
  const { t } = useTranslation();
  const [text, setText] = useState('');
  const [sending, setSending] = useState(false);
  return (
    <form
      onSubmit={(event) => {
        event.preventDefault();
        if (!text.trim()) return;
        setSending(true);
        void broadcastToGroups(text).then((sent) => {
          setSending(false);
          if (sent) setText('');
        });
      }}
    >
      <Group gap="xs" wrap="nowrap" align="flex-end">
        <TextInput
          style={{ flex: 1 }}
          label={t('meeting.breakouts.broadcast')}
          placeholder={t('meeting.breakouts.broadcastPlaceholder')}
          value={text}
          onChange={(event) => setText(event.currentTarget.value)}
          maxLength={limits.chatMaxLength}
          data-testid="breakouts-broadcast-input"
        />
        <Button type="submit" variant="light" loading={sending} disabled={!text.trim()} aria-label={t('meeting.breakouts.send')} data-testid="breakouts-broadcast-send">
          <IconSend size={16} className={meetingClasses.flipInRtl} aria-hidden />
        </Button>
      </Group>
    </form>
  );
}

function HostCard({ split, roomId }: { split: BreakoutView; roomId: string }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const groupName = useGroupName();
  const unplaced = useBreakouts((state) => state.unplaced);
  const groupChoices = split.groups.map((_, group) => ({ value: String(group), label: groupName(group) }));
  return (
    <Paper className={classes.breakoutsCard} shadow="xl" radius="lg" withBorder p="md" role="region" aria-label={t('meeting.breakouts.title')} data-testid="breakouts-card">
      <Stack gap="sm">
        <Group justify="space-between" wrap="nowrap" gap="xs">
          <Group gap={6} wrap="nowrap">
            <IconUsersGroup size={16} aria-hidden />
            <Text size="sm" fw={600}>
              {t('meeting.breakouts.title')}
            </Text>
            <TimeLeft split={split} />
          </Group>
          <CloseButton size="sm" aria-label={t('meeting.breakouts.hide')} onClick={() => useBreakouts.setState({ cardHidden: true })} />
        </Group>
        {split.groups.map((group, index) => {
          const here = group.roomId === roomId;
          return (
            <Group key={group.roomId} justify="space-between" wrap="nowrap" gap="xs" data-testid="breakout-group" data-room-id={group.roomId}>
              <div style={{ minWidth: 0 }}>
                <Text size="sm" fw={500}>
                  {groupName(index)}
                </Text>
                <Text size="xs" c="dimmed" lineClamp={2}>
                  {group.members.length ? group.members.map((m) => m.userName).join(', ') : t('meeting.breakouts.empty')}
                </Text>
              </div>
              {here ? (
                <Badge size="sm" variant="light">
                  {t('meeting.breakouts.youAreHere')}
                </Badge>
              ) : (
                <Button
                  size="xs"
                  variant="light"
                  leftSection={<IconDoorEnter size={14} aria-hidden />}
                  onClick={() => navigate(paths.meeting(group.roomId))}
                  aria-label={t('meeting.breakouts.visitGroup', { group: groupName(index) })}
                  data-testid="breakout-visit"
                >
                  {t('meeting.breakouts.visit')}
                </Button>
              )}
            </Group>
          );
        })}
        {unplaced.length > 0 && (
          <Stack gap={6} data-testid="breakouts-unplaced">
            <Text size="sm" fw={500}>
              {t('meeting.breakouts.inNoGroup')}
            </Text>
            {unplaced.map((person) => (
              <Group key={person.userId} justify="space-between" wrap="nowrap" gap="xs">
                <Text size="sm" truncate>
                  {person.userName}
                </Text>
                <Select
                  w={150}
                  size="xs"
                  placeholder={t('meeting.breakouts.moveTo')}
                  data={groupChoices}
                  value={null}
                  onChange={(value) => value !== null && void moveToGroup(person.userId, Number(value))}
                  aria-label={t('meeting.breakouts.moveToOf', { name: person.userName })}
                  data-testid="breakout-move"
                />
              </Group>
            ))}
          </Stack>
        )}
        <Broadcast />
        <Group justify="space-between" gap="xs">
          {roomId !== split.roomId ? (
            <Button size="xs" variant="default" leftSection={<IconArrowBackUp size={14} className={meetingClasses.flipInRtl} aria-hidden />} onClick={() => navigate(paths.meeting(split.roomId))} data-testid="breakouts-main-room">
              {t('meeting.breakouts.backToMain')}
            </Button>
          ) : (
            <span />
          )}
          <Button size="xs" color="red" onClick={() => void closeBreakouts()} data-testid="breakouts-close">
            {t('meeting.breakouts.close')}
          </Button>
        </Group>
      </Stack>
    </Paper>
  );
}

function ChooseCard({ split }: { split: BreakoutView }) {
  const { t } = useTranslation();
  const groupName = useGroupName();
  return (
    <Paper className={classes.breakoutsCard} shadow="xl" radius="lg" withBorder p="md" role="region" aria-label={t('meeting.breakouts.title')} data-testid="breakouts-choose">
      <Stack gap="sm">
        <Group gap={6} wrap="nowrap">
          <IconUsersGroup size={16} aria-hidden />
          <Text size="sm" fw={600}>
            {t('meeting.breakouts.chooseTitle')}
          </Text>
          <TimeLeft split={split} />
        </Group>
        {split.groups.map((group, index) => (
          <Button key={group.roomId} variant="light" justify="space-between" onClick={() => void chooseGroup(index)} rightSection={<Text size="xs">{t('meeting.breakouts.people', { count: group.members.length })}</Text>} data-testid="breakout-choose">
            {groupName(index)}
          </Button>
        ))}
      </Stack>
    </Paper>
  );
}

export function BreakoutsCard() {
  const split = useOpenSplit();
  const hidden = useBreakouts((state) => state.cardHidden);
  const roomId = useMeetingStore((state) => state.roomId) ?? '';
  const host = amHost(useRoomControls((state) => state.controls));
  const user = useStoredUser();
  if (!split) return null;
  if (host) return hidden ? null : <HostCard split={split} roomId={roomId} />;
  const placed = split.groups.some((g) => g.members.some((m) => m.userId === user?.id));
  return split.mode === 'choose' && !placed && roomId === split.roomId ? <ChooseCard split={split} /> : null;
}
