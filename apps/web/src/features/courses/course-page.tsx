// A course reached by a deep link (/courses/:id). Visitors are asked to log in first; signed-in
// users see the course (GET /api/courses/{id}/) and may enroll from here. Its students, its teacher
// and admins also get an Assignments tab (?tab=assignments opens it: the dashboards link there) and a
// Boards tab with the whiteboards saved during its classes (?tab=boards).
import '../../styles/mantine-more';
import { useState, type ComponentType } from 'react';
import { Alert, Badge, Button, Card, Group, Loader, Stack, Tabs, Text, Title } from '@mantine/core';
import { IconAlertCircle, IconBook2, IconChalkboard, IconCircleCheck, IconClipboardList, IconInfoCircle, IconLock, IconMovie, IconShoppingCart } from '@tabler/icons-react';
import { Link, useLocation, useParams, useSearchParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import type { Course } from '@mooz/contract/courses';
import { messages } from '@mooz/contract/messages';
import { StatusPage } from '../../components/status-page';
import { loginWithNext, paths } from '../../config/paths';
import { explainDenial, useAbility } from '../../lib/ability';
import { ApiError, messageOf } from '../../lib/api';
import { formatDate, formatPrice } from '../../lib/format';
import { kindSchedules, nextBatchStart } from './batch-schedule';
import { usePageTitle } from '../../lib/page-title';
import { translateServerMessage } from '../../lib/server-message';
import { useSignedIn, useStoredUser } from '../../lib/use-stored-auth';
import { BookmarkStar } from '../../components/bookmark-star';
import { courseItemId } from '@mooz/contract/navigation-lists';
import { CourseBatches } from './course-batches-panel';
import { CourseBoards } from './course-boards';
import { LazyPaymentDeclined, LazySandboxCheckout } from './checkout-dialogs-lazy';
import { LazyEnrollModal, preloadEnrollModal } from './enroll-modal-lazy';
import { useCourse } from './use-courses';
import { useEnrollment } from './use-enrollment';

function CourseDetails({ id }: { id: string }) {
  const { t, i18n } = useTranslation();
  const ability = useAbility();
  const course = useCourse(Number(id));
  const enrollment = useEnrollment();
  const [choosing, setChoosing] = useState<Course | null>(null);
  const user = useStoredUser();
  const locale = i18n.language;
  usePageTitle(course.data?.data.name);

  if (course.isPending) {
    return (
      <Group justify="center" py={64}>
        <Loader aria-label={t('common.loading')} />
      </Group>
    );
  }
  const notFound = course.isError && course.error instanceof ApiError && (course.error.status === 404 || course.error.status === 400);
  if (course.isError && !notFound) {
    return (
      <Alert color="red" icon={<IconAlertCircle size={18} />} title={t('course.loadFailed')}>
        {translateServerMessage(t, messageOf(course.error, messages.failedToFetchCourses))}
      </Alert>
    );
  }
  if (!course.data) {
    return (
      <StatusPage
        icon={<IconBook2 size={48} stroke={1.5} />}
        code="404"
        title={t('course.notFound.title')}
        description={t('course.notFound.description')}
        actions={
          <Button component={Link} to={paths.courses}>
            {t('course.toCatalogue')}
          </Button>
        }
      />
    );
  }
  const details = course.data.data;
  // Its recordings are for its buyers, its teacher and admins (the server decides; a trial sees some).
  const canWatch =
    ability.can('read', 'Recording') && (details.enrolled || details.teacher.id === user?.id || user?.is_trial === true || ability.can('manage', 'all'));
  const nextBatch = nextBatchStart(details.batches);
  const weekdays = kindSchedules(details.batches, 'weekdays', locale);
  const weekends = kindSchedules(details.batches, 'weekends', locale);
  return (
    <Card radius="lg" p="xl" withBorder data-testid="course-details">
      <Stack gap="md">
        <Group justify="space-between" align="flex-start">
          <Group gap="xs" wrap="nowrap" align="flex-start">
            <Title order={1} size="h2">
              {details.name}
            </Title>
            <BookmarkStar id={courseItemId(details.id)} title={details.name} />
          </Group>
          <Badge size="xl" variant="light">
            {formatPrice(details.price, details.currency, locale)}
          </Badge>
        </Group>
        <Text c="dimmed">{t('course.teacher', { name: details.teacher.name })}</Text>
        <Text>{details.description}</Text>
        <Text size="sm">
          {t('course.duration', { count: details.duration_weeks })}
          {' · '}
          {nextBatch ? t('courses.nextBatch', { date: formatDate(nextBatch, locale) }) : t('courses.noUpcomingBatch')}
        </Text>
        {weekdays && <Text size="sm">{t('courses.weekdayTimes', { times: weekdays })}</Text>}
        {weekends && <Text size="sm">{t('courses.weekendTimes', { times: weekends })}</Text>}
        {details.skills.length > 0 && (
          <Group gap="xs">
            {details.skills.map((skill) => (
              <Badge key={skill} variant="outline" tt="none">
                {skill}
              </Badge>
            ))}
          </Group>
        )}
        <Group>
          {canWatch && (
            <Button variant="default" component={Link} to={paths.courseRecordings(details.id)} leftSection={<IconMovie size={16} />} data-testid="course-recordings-link">
              {t('course.recordings')}
            </Button>
          )}
          {details.enrolled ? (
            <Button variant="light" component={Link} to={paths.myCourses} leftSection={<IconCircleCheck size={16} />}>
              {t('courses.goToMyCourses')}
            </Button>
          ) : (
            ability.can('create', 'Enrollment') && (
              <Button leftSection={<IconShoppingCart size={16} />} onClick={() => setChoosing(details)} disabled={enrollment.busy} {...preloadEnrollModal} data-testid="enroll-button">
                {t('courses.enroll')}
              </Button>
            )
          )}
        </Group>
      </Stack>
      <LazyEnrollModal
        course={choosing}
        busy={enrollment.stage === 'ordering'}
        onClose={() => setChoosing(null)}
        onSubmit={async (chosen, body) => {
          const result = await enrollment.enroll(chosen, body);
          if (result.ok) setChoosing(null);
          return result;
        }}
      />
      <LazySandboxCheckout checkout={enrollment.sandbox} />
      <LazyPaymentDeclined declined={enrollment.declined} />
    </Card>
  );
}

/** The assignments tab's content, given by the app (a feature never imports another). */
type AssignmentsTabComponent = ComponentType<{ courseId: number; canCreate: boolean; canAnswer: boolean }>;

export function CoursePage({ assignments }: { assignments?: AssignmentsTabComponent } = {}) {
  const { t } = useTranslation();
  const { id = '' } = useParams();
  const location = useLocation();
  const signedIn = useSignedIn();
  const ability = useAbility();

  if (!signedIn) {
    return (
      <StatusPage
        testId="course-login-required"
        icon={<IconLock size={48} stroke={1.5} />}
        title={t('course.loginRequired.title')}
        description={t('course.loginRequired.description')}
        actions={
          <Button component={Link} to={loginWithNext(location.pathname)} size="md">
            {t('course.loginRequired.action')}
          </Button>
        }
      />
    );
  }
  if (!ability.can('read', 'Course')) {
    return (
      <Alert color="orange" icon={<IconLock size={18} />} title={t('notAuthorized.title')}>
        {explainDenial(ability, 'read', 'Course')}
      </Alert>
    );
  }
  return <CourseTabs id={id} assignments={assignments} />;
}

const tabNames = ['overview', 'assignments', 'boards'] as const;

/** The course's overview; its assignments for those who may read them: its students, its teacher, admins and
 * students in trial (who read but answer only once enrolled); and the boards saved during its classes for
 * those who may see its sessions (the same people; the server decides which sessions). */
function CourseTabs({ id, assignments: AssignmentsTab }: { id: string; assignments?: AssignmentsTabComponent }) {
  const { t } = useTranslation();
  const ability = useAbility();
  const user = useStoredUser();
  const course = useCourse(Number(id));
  const [search, setSearch] = useSearchParams();
  const details = course.data?.data;
  const teaches = details !== undefined && (details.teacher.id === user?.id || ability.can('manage', 'all'));
  const member = details !== undefined && (details.enrolled || teaches || user?.is_trial === true);
  const readsAssignments = AssignmentsTab !== undefined && member && ability.can('read', 'Assignment');
  const seesBoards = member && ability.can('read', 'Session');
  const overview = (
    <>
      <CourseDetails id={id} />
      <CourseBatches id={Number(id)} />
    </>
  );
  if (!details || (!readsAssignments && !seesBoards)) return overview;
  const offered = tabNames.filter((name) => (name === 'assignments' ? readsAssignments : name === 'boards' ? seesBoards : true));
  const asked = search.get('tab');
  const tab = offered.find((name) => name === asked) ?? 'overview';
  return (
    <Tabs
      value={tab}
      onChange={(value) =>
        setSearch(
          (params) => {
            if (value && value !== 'overview') params.set('tab', value);
            else params.delete('tab');
            return params;
          },
          { replace: true },
        )
      }
      keepMounted={false}
      data-testid="course-tabs"
    >
      <Tabs.List mb="lg">
        <Tabs.Tab value="overview" leftSection={<IconInfoCircle size={16} />} data-testid="course-tab-overview">
          {t('course.tab.overview')}
        </Tabs.Tab>
        {readsAssignments && (
          <Tabs.Tab value="assignments" leftSection={<IconClipboardList size={16} />} data-testid="course-tab-assignments">
            {t('course.tab.assignments')}
          </Tabs.Tab>
        )}
        {seesBoards && (
          <Tabs.Tab value="boards" leftSection={<IconChalkboard size={16} />} data-testid="course-tab-boards">
            {t('courses.boards.tab')}
          </Tabs.Tab>
        )}
      </Tabs.List>
      <Tabs.Panel value="overview">{overview}</Tabs.Panel>
      {readsAssignments && AssignmentsTab && (
        <Tabs.Panel value="assignments">
          <Title order={1} size="h2" mb="sm" style={{ overflowWrap: 'anywhere' }}>
            {t('courseAssignments.heading', { name: details.name })}
          </Title>
          <AssignmentsTab courseId={details.id} canCreate={teaches && ability.can('create', 'Assignment')} canAnswer={details.enrolled && ability.can('create', 'Submission')} />
        </Tabs.Panel>
      )}
      {seesBoards && (
        <Tabs.Panel value="boards">
          <Title order={1} size="h2" mb="sm" style={{ overflowWrap: 'anywhere' }}>
            {t('courses.boards.heading', { name: details.name })}
          </Title>
          <Text c="dimmed" mb="md">
            {t('courses.boards.intro')}
          </Text>
          <CourseBoards courseId={details.id} />
        </Tabs.Panel>
      )}
    </Tabs>
  );
}
