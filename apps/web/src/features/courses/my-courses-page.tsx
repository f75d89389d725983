// "My courses": a student's paid courses with their batch, dates and times in their own time zone;
// a teacher's (or admin's) courses to edit, with the way to create one.
import '../../styles/mantine-more';
import { Badge, Button, Group, Paper, Stack, Text } from '@mantine/core';
import { IconCalendarEvent, IconClock, IconPlus, IconSchool } from '@tabler/icons-react';
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import { subject } from '@casl/ability';
import type { Enrollment } from '@mooz/contract/courses';
import type { Batch } from '@mooz/contract/batches';
import { messages } from '@mooz/contract/messages';
import { CardGrid, ListEmpty, ListError, ListLoading, PageHeader } from '../../components/list-states';
import { paths } from '../../config/paths';
import { useAbility } from '../../lib/ability';
import { messageOf } from '../../lib/api';
import { formatDate } from '../../lib/format';
import { batchOfEnrollment, describeSchedule } from './batch-schedule';
import { viewerTimeZone } from '../../lib/intl';
import { translateServerMessage } from '../../lib/server-message';
import { CourseCard } from './course-card';
import { useMyCourses } from './use-courses';
import { TeacherCourseActions } from './teacher-course-actions';

function EnrollmentDetails({ enrollment, batches }: { enrollment: Enrollment; batches: Batch[] }) {
  const { t, i18n } = useTranslation();
  const locale = i18n.language;
  const timeZone = viewerTimeZone();
  const batch = batchOfEnrollment(batches, enrollment);
  return (
    <Paper withBorder radius="md" p="sm" data-testid="enrollment-details">
      <Stack gap={6}>
        <Group justify="space-between" gap="xs">
          <Badge variant="light" color={enrollment.batch === 'weekdays' ? 'mooz' : 'cyan'}>
            {enrollment.batch === 'weekdays' ? t('enroll.weekdaysBatch') : t('enroll.weekendsBatch')}
          </Badge>
          <Text size="xs" c="dimmed">
            {t('myCourses.timeZone', { zone: timeZone })}
          </Text>
        </Group>
        <Group gap={8} wrap="nowrap">
          <IconCalendarEvent size={15} aria-hidden="true" />
          <Text size="sm">
            {t('myCourses.dates', { start: formatDate(enrollment.start_date, locale), end: formatDate(enrollment.end_date, locale) })}
          </Text>
        </Group>
        <Group gap={8} wrap="nowrap">
          <IconClock size={15} aria-hidden="true" />
          <Text size="sm">
            {batch
              ? describeSchedule(batch, locale)
              : enrollment.batch === 'weekdays'
                ? t('myCourses.weekdayTime', { time: enrollment.time ?? '—' })
                : t('myCourses.weekendTimes', { saturday: enrollment.saturday_time ?? '—', sunday: enrollment.sunday_time ?? '—' })}
          </Text>
        </Group>
      </Stack>
    </Paper>
  );
}

export function MyCoursesPage() {
  const { t } = useTranslation();
  const ability = useAbility();
  const courses = useMyCourses();
  const teaches = ability.can('create', 'Course');
  // Whoever may edit a course that is not theirs (admins) manages every course rather than teaching some.
  const managesAll = ability.can('update', subject('Course', { teacher_id: -1 }) as never);

  return (
    <div data-testid="my-courses-page">
      <PageHeader
        title={t('myCourses.title')}
        description={managesAll ? t('myCourses.subtitleAdmin') : teaches ? t('myCourses.subtitleTeacher') : t('myCourses.subtitle')}
        actions={
          teaches && (
            <Button component={Link} to={paths.newCourse} leftSection={<IconPlus size={16} />} data-testid="new-course">
              {t('teach.newCourse')}
            </Button>
          )
        }
      />
      {courses.isPending ? (
        <ListLoading testId="my-courses-loading" height={260} />
      ) : courses.isError ? (
        <ListError
          testId="my-courses-error"
          title={t('myCourses.errorTitle')}
          message={translateServerMessage(t, messageOf(courses.error, messages.failedToFetchMyCourses))}
          onRetry={() => void courses.refetch()}
          retrying={courses.isFetching}
        />
      ) : courses.data.data.length === 0 ? (
        <ListEmpty
          testId="my-courses-empty"
          icon={<IconSchool size={36} />}
          title={teaches ? t('myCourses.emptyTeacher.title') : t('myCourses.empty.title')}
          description={teaches ? t('myCourses.emptyTeacher.description') : t('myCourses.empty.description')}
          action={
            teaches ? (
              <Button component={Link} to={paths.newCourse} leftSection={<IconPlus size={16} />}>
                {t('teach.newCourse')}
              </Button>
            ) : (
              <Button component={Link} to={paths.courses}>
                {t('myCourses.browse')}
              </Button>
            )
          }
        />
      ) : (
        <CardGrid>
          {courses.data.data.map((course) => (
            <CourseCard
              key={course.id}
              course={course}
              badge={
                course.enrollment === null && (
                  <Badge variant="filled" color={course.archived_at ? 'orange' : course.published ? 'green' : 'gray'} size="lg">
                    {course.archived_at ? t('teach.archived') : course.published ? t('teach.published') : t('teach.draft')}
                  </Badge>
                )
              }
              details={course.enrollment ? <EnrollmentDetails enrollment={course.enrollment} batches={course.batches} /> : undefined}
              footer={
                ability.can('update', subject('Course', { teacher_id: course.teacher.id }) as never) && <TeacherCourseActions course={course} />
              }
            />
          ))}
        </CardGrid>
      )}
    </div>
  );
}
