// A course reached by a deep link (/courses/:id). Visitors are asked to log in first; signed-in
// users see the course as listed by GET /api/courses/.
import { Alert, Badge, Button, Card, Group, Loader, Stack, Text, Title } from '@mantine/core';
import { IconAlertCircle, IconBook2, IconLock } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { Link, useLocation, useParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { storageKeys } from '@mooz/contract/config';
import { messages } from '@mooz/contract/messages';
import { StatusPage } from '../../components/status-page';
import { loginWithNext, paths } from '../../config/paths';
import { explainDenial, useAbility } from '../../lib/ability';
import { readStorage } from '../../lib/storage';
import { translateServerMessage } from '../../lib/server-message';
import { useSignedIn } from '../../lib/use-session';

interface Course {
  id: number;
  name: string;
  description: string;
  price?: number;
  currency?: string;
  teacher?: { id: number; name: string };
  skills?: string[];
  duration_weeks?: number;
}

async function fetchCourses(): Promise<Course[]> {
  const token = readStorage(storageKeys.access);
  if (!token) throw new Error(messages.noAccessToken);
  const response = await fetch('/api/courses/', {
    headers: { Authorization: `Bearer ${token}`, Accept: 'application/json' },
  });
  const body = (await response.json().catch(() => null)) as { data?: Course[]; message?: string } | null;
  if (!response.ok || !Array.isArray(body?.data)) throw new Error(body?.message ?? messages.failedToFetchCourses);
  return body.data;
}

function formatPrice(minor: number, currency: string, locale: string): string {
  try {
    return new Intl.NumberFormat(locale, { style: 'currency', currency }).format(minor / 100);
  } catch {
    return `${(minor / 100).toFixed(2)} ${currency}`;
  }
}

function CourseDetails({ id }: { id: string }) {
  const { t, i18n } = useTranslation();
  const courses = useQuery({ queryKey: ['courses'], queryFn: fetchCourses });

  if (courses.isPending) {
    return (
      <Group justify="center" py={64}>
        <Loader aria-label={t('common.loading')} />
      </Group>
    );
  }
  if (courses.isError) {
    return (
      <Alert color="red" icon={<IconAlertCircle size={18} />} title={t('course.loadFailed')}>
        {translateServerMessage(t, courses.error.message)}
      </Alert>
    );
  }
  const course = courses.data.find((candidate) => String(candidate.id) === id);
  if (!course) {
    return (
      <StatusPage
        icon={<IconBook2 size={48} stroke={1.5} />}
        code="404"
        title={t('course.notFound.title')}
        description={t('course.notFound.description')}
        actions={
          <Button component={Link} to={paths.dashboard}>
            {t('notAuthorized.toDashboard')}
          </Button>
        }
      />
    );
  }
  return (
    <Card radius="lg" p="xl" withBorder data-testid="course-details">
      <Stack gap="md">
        <Group justify="space-between" align="flex-start">
          <Title order={2}>{course.name}</Title>
          {course.price !== undefined && course.currency && (
            <Badge size="xl" variant="light">
              {formatPrice(course.price, course.currency, i18n.language)}
            </Badge>
          )}
        </Group>
        {course.teacher && <Text c="dimmed">{t('course.teacher', { name: course.teacher.name })}</Text>}
        <Text>{course.description}</Text>
        {course.duration_weeks !== undefined && (
          <Text size="sm">{t('course.duration', { count: course.duration_weeks })}</Text>
        )}
        {course.skills && course.skills.length > 0 && (
          <Group gap="xs">
            {course.skills.map((skill) => (
              <Badge key={skill} variant="outline">
                {skill}
              </Badge>
            ))}
          </Group>
        )}
      </Stack>
    </Card>
  );
}

export function CoursePage() {
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
  return <CourseDetails id={id} />;
}
