// One course's recordings (/recordings/course/:courseId), newest first, each opening the player. A
// course the caller may not watch is "not found", as the server says.
import '../../styles/mantine-more';
import { Anchor, Button, Group } from '@mantine/core';
import { IconChevronRight, IconMovie, IconMovieOff } from '@tabler/icons-react';
import { Link, useParams } from 'react-router';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { messages } from '@mooz/contract/messages';
import type { RecordingGroup } from '@mooz/contract/recordings';
import { ListEmpty, ListError, ListLoading, PageHeader } from '../../components/list-states';
import { StatusPage } from '../../components/status-page';
import { paths } from '../../config/paths';
import type { Envelope } from '../../lib/api';
import { messageOf } from '../../lib/api';
import { usePageTitle } from '../../lib/page-title';
import { translateServerMessage } from '../../lib/server-message';
import { RecordingList } from './recording-list';
import { isNotFound, newestFirst, recordingKeys, useCourseRecordings } from './use-recordings';
import classes from './recordings.module.css';

/** The way back: Recordings › (this page). */
export function RecordingsCrumbs({ children }: { children?: React.ReactNode }) {
  const { t } = useTranslation();
  return (
    <nav aria-label={t('recordings.breadcrumbs')} className={classes.crumbs}>
      <Anchor component={Link} to={paths.recordings} size="sm">
        {t('recordings.title')}
      </Anchor>
      {children && (
        <>
          <IconChevronRight size={14} className={classes.flip} aria-hidden="true" />
          {children}
        </>
      )}
    </nav>
  );
}

export function RecordingNotFound({ testId = 'not-found' }: { testId?: string }) {
  const { t } = useTranslation();
  return (
    <StatusPage
      testId={testId}
      icon={<IconMovieOff size={48} stroke={1.5} />}
      code="404"
      title={t('recordings.notFound.title')}
      description={t('recordings.notFound.description')}
      actions={
        <Button component={Link} to={paths.recordings} size="md">
          {t('recordings.toRecordings')}
        </Button>
      }
    />
  );
}

export function CourseRecordingsPage() {
  const { t } = useTranslation();
  const { courseId = '' } = useParams();
  const id = Number(courseId);
  const client = useQueryClient();
  const recordings = useCourseRecordings(id);
  const list = recordings.isSuccess ? newestFirst(recordings.data.data) : [];
  // The name comes with the recordings; an empty course is named by the grouped list, if it was loaded.
  const groups = client.getQueryData<Envelope<RecordingGroup[]>>(recordingKeys.groups)?.data;
  const courseName = list.find((r) => r.course_name)?.course_name ?? groups?.find((g) => g.course_id === id)?.course_name ?? null;
  usePageTitle(courseName ?? undefined);

  if (!Number.isInteger(id) || id <= 0 || (recordings.isError && isNotFound(recordings.error))) return <RecordingNotFound />;

  return (
    <div data-testid="course-recordings-page">
      <RecordingsCrumbs />
      <PageHeader
        title={courseName ?? t('recordings.courseTitle')}
        description={recordings.isSuccess && list.length > 0 ? t('recordings.courseSubtitle', { count: list.length }) : undefined}
        actions={
          <Button component={Link} to={paths.course(id)} variant="default">
            {t('recordings.aboutCourse')}
          </Button>
        }
      />
      {recordings.isPending ? (
        <ListLoading testId="course-recordings-loading" count={3} height={110} list />
      ) : recordings.isError ? (
        <ListError
          testId="course-recordings-error"
          title={t('recordings.errorTitle')}
          message={translateServerMessage(t, messageOf(recordings.error, messages.failedToFetchRecordedVideos))}
          onRetry={() => void recordings.refetch()}
          retrying={recordings.isFetching}
        />
      ) : list.length === 0 ? (
        <ListEmpty
          testId="course-recordings-empty"
          icon={<IconMovie size={36} />}
          title={t('recordings.courseEmpty.title')}
          description={t('recordings.courseEmpty.description')}
          action={
            <Group justify="center">
              <Button component={Link} to={paths.sessions}>
                {t('recordings.empty.sessions')}
              </Button>
            </Group>
          }
        />
      ) : (
        <RecordingList recordings={list} />
      )}
    </div>
  );
}
