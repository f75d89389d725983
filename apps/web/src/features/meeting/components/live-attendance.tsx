// Live attendance in the People tab, for the session's teacher and admins in a class
// session's room: who is here and since when, who has left and when (each stint, and the time present),
// and which of the session's students have not come. Asked of the server every few seconds; the server
// decides who may see it: anyone else gets nothing shown. Not asked in an ad hoc room:
// it has no session, so no roster to be absent from, and the People list above already says who is here.
import { Badge, Divider, Group, Stack, Text, Title } from '@mantine/core';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { apiRoutes } from '@mooz/contract/api-routes';
import type { SessionAttendance } from '@mooz/contract/teaching';
import { useAbility } from '../../../lib/ability';
import { ApiError, call } from '../../../lib/api';
import { isolate } from '../../../lib/bidi';
import { useMeetingStore } from '../meeting-store';
import { useRoomControls } from '../services/room-controls';
import classes from '../meeting.module.css';
import { dateTimeFormat } from '../../../lib/intl';

/** How often the report is asked for while the People tab shows it. */
const attendancePollMs = 5_000;

type Attendee = SessionAttendance['attended'][number];

/** Refusals that mean "not for you, or not a class": stop asking. */
const final = (error: unknown) => error instanceof ApiError && [401, 403, 404, 409].includes(error.status);

function useLiveAttendance(roomId: string | null, enabled: boolean) {
  return useQuery({
    queryKey: ['meeting', roomId, 'attendance'],
    queryFn: ({ signal }) => call(apiRoutes.sessions.roomAttendance, { params: { roomId: roomId! }, signal }),
    enabled: enabled && !!roomId,
    refetchInterval: (query) => (query.state.error && final(query.state.error) ? false : attendancePollMs),
    retry: (count, error) => !final(error) && count < 2,
    placeholderData: keepPreviousData,
  });
}

/** The stints of one person, "10:02–10:20, 10:31–now". */
function Stints({ person, time }: { person: Attendee; time: (iso: string) => string }) {
  const { t } = useTranslation();
  return (
    <Text size="xs" c="dimmed">
      {person.visits.map((visit) => `${time(visit.joined_at)}–${visit.left_at ? time(visit.left_at) : t('meeting.attendance.now')}`).join(', ')}
    </Text>
  );
}

export function LiveAttendance() {
  const { t, i18n } = useTranslation();
  const roomId = useMeetingStore((state) => state.roomId);
  const joined = useMeetingStore((state) => state.phase === 'joined' || state.phase === 'reconnecting');
  // Only those who may run sessions ask; the server checks that it is their session.
  const mayRun = useAbility().can('update', 'Session');
  const classSession = useRoomControls((state) => !!state.controls?.classSession);
  const report = useLiveAttendance(roomId, mayRun && joined && classSession);
  if (!report.data) return null;
  const { attended, absent } = report.data.data;
  const time = (iso: string) => isolate(dateTimeFormat(i18n.language, { timeStyle: 'short' }).format(new Date(iso)));
  const here = attended.filter((person) => person.here);
  const left = attended.filter((person) => !person.here);
  const minutes = (person: Attendee) => t('meeting.attendance.minutes', { count: person.minutes_present });

  return (
    <section aria-labelledby="live-attendance-title" data-testid="live-attendance">
      <Divider my="xs" />
      <Group justify="space-between" px="sm" wrap="nowrap">
        <Title order={2} size="h6" id="live-attendance-title">
          {t('meeting.attendance.title')}
        </Title>
        {report.data.data.live && (
          <Badge size="xs" variant="light" color="red">
            {t('meeting.attendance.live')}
          </Badge>
        )}
      </Group>
      <Stack gap="xs" p="sm">
        <div>
          <Title order={3} size="xs" fw={600} mb={4}>
            {t('meeting.attendance.here', { count: here.length })}
          </Title>
          <ul className={classes.peopleList} data-testid="attendance-here">
            {here.map((person) => (
              <li key={person.user_id} className={classes.person} data-testid="attendance-here-row">
                <Group justify="space-between" wrap="nowrap" gap="xs">
                  <Text size="sm" truncate>
                    {person.name}
                  </Text>
                  <Text size="xs" c="dimmed" style={{ flexShrink: 0 }}>
                    {t('meeting.attendance.since', { time: time(person.visits[person.visits.length - 1]!.joined_at) })}
                  </Text>
                </Group>
                {person.visits.length > 1 && <Stints person={person} time={time} />}
                <Text size="xs" c="dimmed">
                  {minutes(person)}
                </Text>
              </li>
            ))}
          </ul>
        </div>
        {left.length > 0 && (
          <div>
            <Title order={3} size="xs" fw={600} mb={4}>
              {t('meeting.attendance.left', { count: left.length })}
            </Title>
            <ul className={classes.peopleList} data-testid="attendance-left">
              {left.map((person) => (
                <li key={person.user_id} className={classes.person} data-testid="attendance-left-row">
                  <Group justify="space-between" wrap="nowrap" gap="xs">
                    <Text size="sm" truncate>
                      {person.name}
                    </Text>
                    <Text size="xs" c="dimmed" style={{ flexShrink: 0 }}>
                      {minutes(person)}
                    </Text>
                  </Group>
                  <Stints person={person} time={time} />
                </li>
              ))}
            </ul>
          </div>
        )}
        <div>
          <Title order={3} size="xs" fw={600} mb={4}>
            {t('meeting.attendance.absent', { count: absent.length })}
          </Title>
          {absent.length > 0 && (
            <ul className={classes.peopleList} data-testid="attendance-absent">
              {absent.map((person) => (
                <li key={person.user_id} className={classes.person}>
                  <Text size="sm" truncate>
                    {person.name}
                  </Text>
                </li>
              ))}
            </ul>
          )}
        </div>
      </Stack>
    </section>
  );
}
