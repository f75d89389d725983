// The catalogue: every published course, with enrollment for those who may enroll and an edit link
// for the course's teacher.
import '../../styles/mantine-more';
import { useState } from 'react';
import { Badge, Button, Group } from '@mantine/core';
import { IconBooks, IconCircleCheck, IconPencil, IconShoppingCart } from '@tabler/icons-react';
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import { subject } from '@casl/ability';
import type { Course } from '@mooz/contract/courses';
import { messages } from '@mooz/contract/messages';
import { CardGrid, ListEmpty, ListError, ListLoading, PageHeader } from '../../components/list-states';
import { paths } from '../../config/paths';
import { useAbility } from '../../lib/ability';
import { messageOf } from '../../lib/api';
import { translateServerMessage } from '../../lib/server-message';
import { CourseCard } from './course-card';
import { LazyPaymentDeclined, LazySandboxCheckout } from './checkout-dialogs-lazy';
import { LazyEnrollModal, preloadEnrollModal } from './enroll-modal-lazy';
import { useCourses } from './use-courses';
import { useEnrollment } from './use-enrollment';

export function CoursesPage() {
  const { t } = useTranslation();
  const ability = useAbility();
  const courses = useCourses();
  const enrollment = useEnrollment();
  const [choosing, setChoosing] = useState<Course | null>(null);
  const canEnroll = ability.can('create', 'Enrollment');
  const canCreate = ability.can('create', 'Course');

  return (
    <div data-testid="courses-page">
      <PageHeader
        title={t('courses.title')}
        description={t('courses.subtitle')}
        actions={
          canCreate && (
            <Button component={Link} to={paths.newCourse} leftSection={<IconPencil size={16} />}>
              {t('teach.newCourse')}
            </Button>
          )
        }
      />
      {courses.isPending ? (
        <ListLoading testId="courses-loading" height={260} />
      ) : courses.isError ? (
        <ListError
          testId="courses-error"
          title={t('courses.errorTitle')}
          message={translateServerMessage(t, messageOf(courses.error, messages.failedToFetchCourses))}
          onRetry={() => void courses.refetch()}
          retrying={courses.isFetching}
        />
      ) : courses.data.data.length === 0 ? (
        <ListEmpty testId="courses-empty" icon={<IconBooks size={36} />} title={t('courses.empty.title')} description={t('courses.empty.description')} />
      ) : (
        <CardGrid>
          {courses.data.data.map((course) => {
            const canEdit = ability.can('update', subject('Course', { teacher_id: course.teacher.id }) as never);
            return (
              <CourseCard
                key={course.id}
                course={course}
                badge={
                  course.enrolled && (
                    <Badge color="green" variant="filled" size="lg" leftSection={<IconCircleCheck size={14} />}>
                      {t('courses.enrolled')}
                    </Badge>
                  )
                }
                footer={
                  <Group gap="sm" grow>
                    {course.enrolled ? (
                      <Button variant="light" component={Link} to={paths.myCourses}>
                        {t('courses.goToMyCourses')}
                      </Button>
                    ) : (
                      canEnroll && (
                        <Button
                          leftSection={<IconShoppingCart size={16} />}
                          onClick={() => setChoosing(course)}
                          disabled={enrollment.busy}
                          {...preloadEnrollModal}
                          data-testid="enroll-button"
                        >
                          {t('courses.enroll')}
                        </Button>
                      )
                    )}
                    {canEdit && (
                      <Button variant="default" component={Link} to={paths.editCourse(course.id)} leftSection={<IconPencil size={16} />}>
                        {t('teach.edit')}
                      </Button>
                    )}
                  </Group>
                }
              />
            );
          })}
        </CardGrid>
      )}
      <LazyEnrollModal
        course={choosing}
        busy={enrollment.stage === 'ordering'}
        onClose={() => setChoosing(null)}
        onSubmit={async (course, body) => {
          const result = await enrollment.enroll(course, body);
          if (result.ok) setChoosing(null);
          return result;
        }}
      />
      <LazySandboxCheckout checkout={enrollment.sandbox} />
      <LazyPaymentDeclined declined={enrollment.declined} />
    </div>
  );
}
