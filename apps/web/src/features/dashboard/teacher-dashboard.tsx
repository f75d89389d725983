// The teacher's dashboard (contract "Dashboards"): the five stats as cards (the next class with its
// Start/Join button), the week's teaching hours, the classes that ended without the teacher, and the
// answers waiting for review. A failure reads 'Something went wrong!' (the spec), with a retry.
import { Anchor, Badge, Button, Group, SimpleGrid, Stack, Text } from '@mantine/core';
import { IconCalendarPlus, IconCalendarTime, IconCalendarX, IconChalkboard, IconClockHour4, IconInbox, IconUsers } from '@tabler/icons-react';
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import type { TeacherDashboard as TeacherData } from '@mooz/contract/dashboards';
import { limits } from '@mooz/contract/limits';
import { ListEmpty } from '../../components/list-states';
import { paths } from '../../config/paths';
import { useAbility } from '../../lib/ability';
import { assignmentsPath, formatCount, formatHours, formatMoment } from './format';
import { DashboardError, DashboardLoading, NextClassCard, Panel, StatCard } from './parts';
import { TrendChart } from './trend-chart';
import { useTeacherDashboard } from './use-dashboards';
import classes from './dashboard.module.css';

/** Nothing taught, scheduled, missed or handed in yet. */
function isQuietTeacher(data: TeacherData): boolean {
  const { stats } = data;
  return (
    !(stats.totalTeachingHours > 0) &&
    stats.activeStudents === 0 &&
    stats.upcomingClasses === 0 &&
    stats.nextClass === null &&
    stats.missingClasses === 0 &&
    data.pendingReviewsTotal === 0
  );
}

/**
 * `platform`: an admin's view of every teacher together; `own`: the signed-in teacher's own figures
 * (an admin looking at one teacher sees them spoken of in the third person).
 */
function TeacherDashboardView({ data, platform = false, own = !platform }: { data: TeacherData; platform?: boolean; own?: boolean }) {
  const { t, i18n } = useTranslation();
  const ability = useAbility();
  const locale = i18n.language;
  const { stats } = data;

  if (isQuietTeacher(data)) {
    return (
      <ListEmpty
        testId="teacher-dashboard-empty"
        icon={<IconChalkboard size={34} />}
        title={t(own ? 'dashboard.teacher.emptyTitle' : 'dashboard.teacher.emptyPlatformTitle')}
        description={t(own ? 'dashboard.teacher.emptyDescription' : 'dashboard.teacher.emptyPlatformDescription')}
        action={
          own && ability.can('create', 'Course') ? (
            <Button component={Link} to={paths.newCourse} mt="sm" leftSection={<IconCalendarPlus size={16} />} data-testid="teacher-new-course">
              {t('dashboard.teacher.newCourse')}
            </Button>
          ) : undefined
        }
      />
    );
  }

  return (
    <Stack gap="lg" data-testid="teacher-dashboard">
      <SimpleGrid cols={{ base: 1, xs: 2, lg: 4 }} spacing="lg">
        <StatCard
          testId="stat-teaching-hours"
          icon={<IconClockHour4 size={24} />}
          label={t('dashboard.teacher.totalHours')}
          value={formatHours(stats.totalTeachingHours, locale)}
          raw={stats.totalTeachingHours}
        />
        <StatCard
          testId="stat-active-students"
          icon={<IconUsers size={24} />}
          label={t('dashboard.teacher.activeStudents')}
          value={formatCount(stats.activeStudents, locale)}
          raw={stats.activeStudents}
          hint={t('dashboard.teacher.activeStudentsHint')}
        />
        <StatCard
          testId="stat-upcoming"
          icon={<IconCalendarTime size={24} />}
          // A figure with its range, and the way to the sessions it counts.
          label={t('dashboard.teacher.upcomingWithin', { count: limits.upcomingWindowDays })}
          value={formatCount(data.upcomingWeek, locale)}
          raw={data.upcomingWeek}
          hint={
            <Anchor component={Link} to={paths.sessionsUpcoming(limits.upcomingWindowDays)} size="xs" data-testid="stat-upcoming-link">
              {t('dashboard.teacher.upcomingLink')}
            </Anchor>
          }
        />
        <StatCard
          testId="stat-missed"
          icon={<IconCalendarX size={24} />}
          label={t('dashboard.teacher.missed')}
          value={formatCount(stats.missingClasses, locale)}
          raw={stats.missingClasses}
          hint={t(own ? 'dashboard.teacher.missedHint' : 'dashboard.teacher.missedHintOther')}
        />
      </SimpleGrid>

      <SimpleGrid cols={{ base: 1, md: 2 }} spacing="lg">
        <NextClassCard session={stats.nextClass} teaching={own} testId="teacher-next-class" />
        <TrendChart
          days={data.weeklyTrends}
          title={t('dashboard.teacher.trendTitle')}
          emptyText={t('dashboard.teacher.trendEmpty')}
          testId="teaching-trend"
        />
      </SimpleGrid>

      <SimpleGrid cols={{ base: 1, md: 2 }} spacing="lg">
        <Panel
          title={t('dashboard.teacher.reviews')}
          testId="pending-reviews"
          action={
            data.pendingReviewsTotal > 0 && (
              <Badge variant="light" size="lg" data-testid="pending-reviews-total">
                {formatCount(data.pendingReviewsTotal, locale)}
              </Badge>
            )
          }
        >
          {data.pendingReviews.length === 0 ? (
            <Group gap="sm" c="dimmed" wrap="nowrap">
              <IconInbox size={20} aria-hidden="true" />
              <Text size="sm">{t('dashboard.teacher.reviewsNone')}</Text>
            </Group>
          ) : (
            <Stack gap="sm" component="ul" className={classes.list}>
              {data.pendingReviews.map((item) => (
                <li key={item.submission_id} className={classes.listItem} data-testid="pending-review">
                  <Anchor component={Link} to={assignmentsPath(item.course_id)} fw={600} className={classes.wrapAnywhere}>
                    {item.assignment_title}
                  </Anchor>
                  <Text size="sm" c="dimmed" className={classes.wrapAnywhere}>
                    {t('dashboard.teacher.reviewBy', { student: item.student_name, course: item.course_name })}
                    {' · '}
                    <time dateTime={item.submitted_at} className={classes.nowrap}>{formatMoment(item.submitted_at, locale)}</time>
                  </Text>
                </li>
              ))}
              {data.pendingReviewsTotal > data.pendingReviews.length && (
                <Text size="sm" c="dimmed" component="li" className={classes.listItem}>
                  {t('dashboard.teacher.reviewsMore', { count: data.pendingReviewsTotal - data.pendingReviews.length })}
                </Text>
              )}
            </Stack>
          )}
        </Panel>
        <Panel title={t(own ? 'dashboard.teacher.missedList' : 'dashboard.teacher.missedListOther')} testId="missed-classes">
          {data.missedClasses.length === 0 ? (
            <Text size="sm" c="dimmed">
              {t(own ? 'dashboard.teacher.missedNone' : 'dashboard.teacher.missedNoneOther')}
            </Text>
          ) : (
            <Stack gap="sm" component="ul" className={classes.list}>
              {data.missedClasses.map((session) => (
                <li key={session.id} className={classes.listItem} data-testid="missed-class">
                  <Text fw={600} className={classes.wrapAnywhere}>
                    {session.title}
                  </Text>
                  <Text size="sm" c="dimmed" className={classes.wrapAnywhere}>
                    {session.course_name}
                    {' · '}
                    <time dateTime={session.starts_at} className={classes.nowrap}>{formatMoment(session.starts_at, locale)}</time>
                  </Text>
                </li>
              ))}
            </Stack>
          )}
        </Panel>
      </SimpleGrid>
    </Stack>
  );
}

/** Loads and shows a teacher's dashboard: the caller's own, or (admins) a chosen teacher's or the platform's. */
export function TeacherDashboard({ teacherId = null, platform = false, own = !platform }: { teacherId?: number | null; platform?: boolean; own?: boolean }) {
  const { t } = useTranslation();
  const query = useTeacherDashboard(teacherId);
  if (query.isPending) return <DashboardLoading testId="teacher-dashboard-loading" />;
  if (query.isError) {
    return (
      <DashboardError
        testId="teacher-dashboard-error"
        title={t('dashboard.teacher.errorTitle')}
        message={t('messages.somethingWentWrong')}
        onRetry={() => void query.refetch()}
        retrying={query.isFetching}
      />
    );
  }
  return <TeacherDashboardView data={query.data} platform={platform} own={own} />;
}
