// "Recordings": the courses whose recorded classes the caller may watch, each with how many there are
// and the latest one's date, leading to that course's list; and, for whoever recorded ad hoc meeting
// rooms, those recordings in a section of their own.
import '../../styles/mantine-more';
import { Badge, Button, Card, Group, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { IconBooks, IconCalendarEvent, IconChevronRight, IconMovie, IconVideo } from '@tabler/icons-react';
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import { messages } from '@mooz/contract/messages';
import type { RecordingGroup } from '@mooz/contract/recordings';
import { ListEmpty, ListError, ListLoading, PageHeader } from '../../components/list-states';
import { paths } from '../../config/paths';
import { useAbility } from '../../lib/ability';
import { messageOf } from '../../lib/api';
import { formatDateTime } from '../../lib/media-format';
import { translateServerMessage } from '../../lib/server-message';
import { RecordingList } from './recording-list';
import { newestFirst, useMeetingRecordings, useRecordingGroups } from './use-recordings';
import classes from './recordings.module.css';

function CourseCard({ group }: { group: RecordingGroup }) {
  const { t, i18n } = useTranslation();
  return (
    <Card
      component={Link}
      to={paths.courseRecordings(group.course_id)}
      withBorder
      radius="lg"
      p="lg"
      className={classes.courseCard}
      data-testid="recording-course-card"
      data-course-id={group.course_id}
    >
      <Group gap="md" wrap="nowrap" align="flex-start">
        <div className={classes.courseIcon} aria-hidden="true">
          <IconMovie size={26} stroke={1.6} />
        </div>
        <Stack gap={6} className={classes.main}>
          <Text fw={700} size="lg" className={classes.wrap}>
            {group.course_name}
          </Text>
          <Group gap="xs">
            <Badge variant="light" data-testid="recording-course-count">
              {t('recordings.count', { count: group.recordings_count })}
            </Badge>
          </Group>
          <Group gap={6} wrap="nowrap" c="dimmed">
            <IconCalendarEvent size={15} aria-hidden="true" />
            <Text size="sm">{t('recordings.latest', { date: formatDateTime(group.latest_at, i18n.language) })}</Text>
          </Group>
        </Stack>
        <IconChevronRight size={20} className={classes.chevron} aria-hidden="true" />
      </Group>
    </Card>
  );
}

export function RecordingsPage() {
  const { t } = useTranslation();
  const ability = useAbility();
  const groups = useRecordingGroups();
  const meetings = useMeetingRecordings();
  const teaches = ability.can('create', 'Recording');
  const meetingList = meetings.isSuccess ? newestFirst(meetings.data.data) : [];
  const noCourses = groups.isSuccess && groups.data.data.length === 0;
  // No course has any and no meeting recording either (or those could not be read: said below).
  const nothing = noCourses && !meetings.isPending && meetingList.length === 0;
  const retry = () => {
    void groups.refetch();
    if (meetings.isError) void meetings.refetch();
  };

  return (
    <div data-testid="recordings-page">
      <PageHeader title={t('recordings.title')} description={teaches ? t('recordings.subtitleTeacher') : t('recordings.subtitle')} />
      {groups.isPending ? (
        <ListLoading testId="recordings-loading" count={3} height={150} />
      ) : groups.isError ? (
        <ListError
          testId="recordings-error"
          title={t('recordings.errorTitle')}
          message={translateServerMessage(t, messageOf(groups.error, messages.failedToFetchRecordedVideos))}
          onRetry={retry}
          retrying={groups.isFetching}
        />
      ) : nothing ? (
        <ListEmpty
          testId="recordings-empty"
          icon={<IconMovie size={36} />}
          title={t('recordings.empty.title')}
          description={teaches ? t('recordings.emptyTeacher.description') : t('recordings.empty.description')}
          action={
            <Group justify="center" gap="sm">
              <Button component={Link} to={paths.sessions} leftSection={<IconCalendarEvent size={16} />}>
                {t('recordings.empty.sessions')}
              </Button>
              {!teaches && (
                <Button component={Link} to={paths.courses} variant="default" leftSection={<IconBooks size={16} />}>
                  {t('myCourses.browse')}
                </Button>
              )}
            </Group>
          }
        />
      ) : noCourses ? null : (
        <SimpleGrid cols={{ base: 1, md: 2, xl: 3 }} spacing="lg" data-testid="recording-courses">
          {groups.data.data.map((group) => (
            <CourseCard key={group.course_id} group={group} />
          ))}
        </SimpleGrid>
      )}
      {meetings.isError ? (
        <Stack gap="sm" mt="xl">
          <ListError
            testId="meeting-recordings-error"
            title={t('recordings.meetings.errorTitle')}
            message={translateServerMessage(t, messageOf(meetings.error, messages.failedToFetchRecordedVideos))}
            onRetry={() => void meetings.refetch()}
            retrying={meetings.isFetching}
          />
        </Stack>
      ) : (
        meetingList.length > 0 && (
          <section aria-labelledby="meeting-recordings-title" className={classes.section} data-testid="meeting-recordings">
            <Group gap="xs" mb="sm">
              <IconVideo size={20} aria-hidden="true" />
              <Title order={2} size="h4" id="meeting-recordings-title">
                {t('recordings.meetings.title')}
              </Title>
            </Group>
            <Text c="dimmed" size="sm" mb="md">
              {t('recordings.meetings.description')}
            </Text>
            <RecordingList recordings={meetingList} />
          </section>
        )
      )}
    </div>
  );
}
