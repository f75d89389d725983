// The caller's class sessions (bought courses, all while in trial, a teacher's own): when, what, and
// a join button while the session can be joined. Teachers schedule new ones from here, and edit,
// cancel or read the attendance of their own.
import '../../styles/mantine-more';
import { useState } from 'react';
import { Alert, Anchor, Badge, Button, Card, Group, Stack, Text, Tooltip } from '@mantine/core';
import { IconCalendarEvent, IconCalendarPlus, IconClock, IconUser, IconVideo } from '@tabler/icons-react';
import { Link, useSearchParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import type { Session } from '@mooz/contract/courses';
import { limits } from '@mooz/contract/limits';
import { messages } from '@mooz/contract/messages';
import { ListEmpty, ListError, ListLoading, PageHeader } from '../../components/list-states';
import { paths } from '../../config/paths';
import { useAbility } from '../../lib/ability';
import { messageOf } from '../../lib/api';
import { isolate } from '../../lib/bidi';
import { translateServerMessage } from '../../lib/server-message';
import { AddToCalendarButton } from './add-to-calendar';
import { ScheduleSessionModal } from './schedule-session-modal';
import { SessionActions } from './session-actions';
import { SessionBoardsButton } from './session-boards';
import { useSessions } from './use-sessions';
import classes from './sessions.module.css';
import { dateTimeFormat } from '../../lib/intl';

/**
 * ?upcoming=7 (paths.sessionsUpcoming): the sessions not yet started that start within that many days,
 * as the server counts the teacher dashboard's upcoming classes (starts after now, up to now + days).
 */
export function upcomingWithin(sessions: Session[], days: number, now = Date.now()): Session[] {
  const until = now + days * 24 * 3600_000;
  return sessions.filter((session) => {
    const start = Date.parse(session.starts_at);
    return start > now && start <= until;
  });
}

/** The days asked for by ?upcoming=, or null for every session (anything else is ignored). */
function upcomingDays(value: string | null): number | null {
  const days = Number(value);
  return value && Number.isInteger(days) && days > 0 && days <= 366 ? days : null;
}

const statusColor = { scheduled: 'mooz', live: 'green', ended: 'gray' } as const;

function SessionRow({ session, manage }: { session: Session; manage: boolean }) {
  const { t, i18n } = useTranslation();
  const locale = i18n.language;
  const start = new Date(session.starts_at);
  const end = new Date(session.ends_at);
  const time = dateTimeFormat(locale, { hour: '2-digit', minute: '2-digit' });
  const zone = dateTimeFormat(locale, { timeZoneName: 'short' }).formatToParts(start).find((part) => part.type === 'timeZoneName')?.value;

  return (
    <Card withBorder radius="lg" p="md" className={classes.row} data-status={session.status} data-testid="session-row" data-room-id={session.room_id}>
      <Group gap="md" wrap="wrap" align="center">
        <div className={classes.dateTile} aria-hidden="true">
          <Text size="xs" fw={600} tt="uppercase">
            {dateTimeFormat(locale, { weekday: 'short' }).format(start)}
          </Text>
          <Text fz={22} fw={800}>
            {start.getDate()}
          </Text>
          <Text size="xs" tt="uppercase">
            {dateTimeFormat(locale, { month: 'short' }).format(start)}
          </Text>
        </div>
        <div className={classes.main}>
          <Group gap="xs" wrap="wrap">
            {/* Titles wrap in full: on a phone there is no pointer to hover a cut one. */}
            <Text fw={700} style={{ overflowWrap: 'anywhere' }} data-testid="session-title">
              {session.title}
            </Text>
            <Badge
              color={statusColor[session.status]}
              variant={session.status === 'live' ? 'filled' : 'light'}
              leftSection={session.status === 'live' ? <span className={classes.liveDot} /> : undefined}
              data-testid="session-status"
            >
              {t(`sessions.status.${session.status}`)}
            </Badge>
          </Group>
          <Text size="sm" c="mooz" fw={500} style={{ overflowWrap: 'anywhere' }} data-testid="session-course-name">
            {session.course_name}
          </Text>
          <Group gap="md" mt={4} c="dimmed">
            <Group gap={6} wrap="nowrap">
              <IconCalendarEvent size={15} aria-hidden="true" />
              <Text size="sm">{isolate(dateTimeFormat(locale, { dateStyle: 'full' }).format(start))}</Text>
            </Group>
            <Group gap={6} wrap="nowrap">
              <IconClock size={15} aria-hidden="true" />
              <Text size="sm" data-testid="session-time">{isolate(`${time.format(start)} – ${time.format(end)} ${zone ?? ''}`.trim())}</Text>
            </Group>
            <Group gap={6} wrap="nowrap">
              <IconUser size={15} aria-hidden="true" />
              <Text size="sm">{session.teacher_name}</Text>
            </Group>
          </Group>
        </div>
        {session.can_join ? (
          <Button component={Link} to={paths.meeting(session.room_id)} leftSection={<IconVideo size={16} />} color="green" data-testid="join-session">
            {t('sessions.join')}
          </Button>
        ) : (
          session.status === 'scheduled' && (
            <Tooltip label={t('sessions.opensAt', { minutes: limits.sessionJoinEarlyMinutes })}>
              <Button variant="default" disabled leftSection={<IconVideo size={16} />}>
                {t('sessions.join')}
              </Button>
            </Tooltip>
          )
        )}
        {session.status !== 'ended' && <AddToCalendarButton session={session} />}
        <SessionBoardsButton session={session} />
        {manage && <SessionActions session={session} />}
      </Group>
    </Card>
  );
}

/** A batch brings a class a day for weeks: the list shows the soonest first, a page at a time. */
const PAGE = 20;

function SessionList({ sessions, manage }: { sessions: Session[]; manage: boolean }) {
  const { t } = useTranslation();
  const [shown, setShown] = useState(PAGE);
  const left = sessions.length - shown;
  return (
    <Stack gap="sm">
      {sessions.slice(0, shown).map((session) => (
        <SessionRow key={session.id} session={session} manage={manage} />
      ))}
      {left > 0 && (
        <Button variant="default" onClick={() => setShown((n) => n + PAGE)} data-testid="sessions-show-more">
          {t('sessions.showMore', { count: Math.min(left, PAGE), total: left })}
        </Button>
      )}
    </Stack>
  );
}

export function SessionsPage() {
  const { t } = useTranslation();
  const ability = useAbility();
  const sessions = useSessions();
  const [searchParams] = useSearchParams();
  const days = upcomingDays(searchParams.get('upcoming'));
  const [scheduling, setScheduling] = useState(false);
  const canSchedule = ability.can('create', 'Session');
  // A teacher is listed only their own sessions, an admin every one: whoever may change sessions at all may change these.
  const canManage = ability.can('update', 'Session');
  const scheduleButton = canSchedule && (
    <Button leftSection={<IconCalendarPlus size={16} />} onClick={() => setScheduling(true)} data-testid="schedule-session-button">
      {t('sessions.schedule')}
    </Button>
  );

  return (
    <div data-testid="sessions-page">
      <PageHeader title={t('sessions.title')} description={t('sessions.subtitle', { minutes: limits.sessionJoinEarlyMinutes })} actions={scheduleButton} />
      {sessions.isPending ? (
        <ListLoading testId="sessions-loading" count={3} height={110} list />
      ) : sessions.isError ? (
        <ListError
          testId="sessions-error"
          title={t('sessions.errorTitle')}
          message={translateServerMessage(t, messageOf(sessions.error, messages.failedToFetchSessions))}
          onRetry={() => void sessions.refetch()}
          retrying={sessions.isFetching}
        />
      ) : sessions.data.data.length === 0 ? (
        <ListEmpty
          testId="sessions-empty"
          icon={<IconCalendarEvent size={36} />}
          title={t('sessions.empty.title')}
          description={canSchedule ? t('sessions.emptyTeacher.description') : t('sessions.empty.description')}
          action={
            scheduleButton || (
              <Button component={Link} to={paths.courses}>
                {t('myCourses.browse')}
              </Button>
            )
          }
        />
      ) : (
        <>
          {days !== null && (
            <Alert mb="md" icon={<IconCalendarEvent size={18} />} data-testid="sessions-upcoming-filter">
              <Group gap="xs" justify="space-between">
                <Text size="sm">{t('sessions.upcomingFilter', { count: days })}</Text>
                <Anchor component={Link} to={paths.sessions} size="sm">
                  {t('sessions.showAll')}
                </Anchor>
              </Group>
            </Alert>
          )}
          <SessionList
            // A new list (and its pages) when the filter changes.
            key={days ?? 'all'}
            sessions={days === null ? sessions.data.data : upcomingWithin(sessions.data.data, days)}
            manage={canManage}
          />
        </>
      )}
      {canSchedule && <ScheduleSessionModal opened={scheduling} onClose={() => setScheduling(false)} />}
    </div>
  );
}
