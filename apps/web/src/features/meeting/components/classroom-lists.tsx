// Running a class in the People tab and on the tiles: each person's badges, the raised hands in order,
// the lobby's waiting list with admit and deny, and the note that the host has locked microphones.
import { type ReactNode } from 'react';
import { Badge, Button, Group, Stack, Text, VisuallyHidden } from '@mantine/core';
import { IconHandStop, IconLock } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { admit, amHost, lowerHands, useRoomControls } from '../services/room-controls';
import classes from '../meeting.module.css';

/** A small badge beside a name: the host, a raised hand (with its place in the order). */
export function PersonBadges({ peerId }: { peerId: string }) {
  const { t } = useTranslation();
  const controls = useRoomControls((state) => state.controls);
  const place = controls?.hands.findIndex((hand) => hand.userId === peerId) ?? -1;
  return (
    <>
      {controls?.hosts.includes(peerId) && (
        <Badge size="sm" variant="light" color="mooz">
          {t('meeting.classroom.host')}
        </Badge>
      )}
      {place >= 0 && <HandBadge place={place + 1} />}
    </>
  );
}

/** A raised hand with its place, for tiles and the people list. */
export function HandBadge({ place }: { place: number }) {
  const { t } = useTranslation();
  return (
    <Badge
      size="sm"
      color="yellow"
      autoContrast
      leftSection={<IconHandStop size={12} aria-hidden />}
      data-testid="hand-badge"
      data-place={place}
    >
      <span dir="ltr" aria-hidden>
        {place}
      </span>
      <VisuallyHidden>{`${t('meeting.classroom.handRaised')} (${place})`}</VisuallyHidden>
    </Badge>
  );
}

/** The raised hands in order (People tab), with "lower" for the host. */
export function HandsList() {
  const { t } = useTranslation();
  const controls = useRoomControls((state) => state.controls);
  if (!controls?.hands.length) return null;
  const host = amHost(controls);
  return (
    <Section
      title={t('meeting.classroom.hands')}
      action={
        host ? (
          <Button size="compact-xs" variant="subtle" onClick={() => lowerHands()} data-testid="lower-all-hands">
            {t('meeting.classroom.lowerAll')}
          </Button>
        ) : null
      }
      testId="hands-list"
    >
      {controls.hands.map((hand, i) => (
        <Group component="li" key={hand.userId} gap="xs" wrap="nowrap" data-testid="hand-entry">
          <HandBadge place={i + 1} />
          <Text size="sm" truncate style={{ flex: 1 }}>
            {hand.userName}
          </Text>
          {host && (
            <Button
              size="compact-xs"
              variant="default"
              onClick={() => lowerHands(hand.userId)}
              aria-label={t('meeting.classroom.lowerOne', { name: hand.userName })}
            >
              {t('meeting.classroom.lower')}
            </Button>
          )}
        </Group>
      ))}
    </Section>
  );
}

/** Who waits in the lobby, oldest first, with Admit and Refuse (hosts only). */
export function LobbyList() {
  const { t } = useTranslation();
  const controls = useRoomControls((state) => state.controls);
  const lobby = useRoomControls((state) => state.lobby);
  if (!lobby.length || !amHost(controls)) return null;
  return (
    <Section title={t('meeting.classroom.waiting', { count: lobby.length })} testId="lobby-list">
      {lobby.map((entry) => (
        <Group component="li" key={entry.userId} gap="xs" wrap="nowrap" data-testid="lobby-entry">
          <Text size="sm" truncate style={{ flex: 1 }}>
            {entry.userName}
          </Text>
          <Button
            size="compact-xs"
            onClick={() => admit(entry.userId, true)}
            aria-label={t('meeting.classroom.admitOne', { name: entry.userName })}
            data-testid="lobby-admit"
          >
            {t('meeting.classroom.admit')}
          </Button>
          <Button
            size="compact-xs"
            variant="default"
            onClick={() => admit(entry.userId, false)}
            aria-label={t('meeting.classroom.refuseOne', { name: entry.userName })}
            data-testid="lobby-refuse"
          >
            {t('meeting.classroom.refuse')}
          </Button>
        </Group>
      ))}
    </Section>
  );
}

function Section({
  title,
  action,
  testId,
  children,
}: {
  title: string;
  action?: ReactNode;
  testId: string;
  children: ReactNode;
}) {
  return (
    <section aria-label={title} data-testid={testId}>
      <Group justify="space-between" wrap="nowrap" px="sm" pt="sm">
        <Text size="xs" fw={700} tt="uppercase" c="dimmed">
          {title}
        </Text>
        {action}
      </Group>
      <Stack gap={6} p="sm" component="ul" className={classes.peopleList}>
        {children}
      </Stack>
    </section>
  );
}

/** The room header's note that microphones are locked. */
export function MicsLockedBadge() {
  const { t } = useTranslation();
  const locked = useRoomControls((state) => !!state.controls?.unmuteLocked);
  if (!locked) return null;
  return (
    <Badge color="yellow" autoContrast leftSection={<IconLock size={12} aria-hidden />} data-testid="mics-locked">
      {t('meeting.classroom.micsLocked')}
    </Badge>
  );
}
