// The students of one course, for its teacher (and admins): who bought which batch, when they paid,
// and how many of the sessions held so far they attended; exported as a CSV file. Search links here.
// The app may add an action per student (the certificates feature's "Award certificate").
import '../../styles/mantine-more';
// Not in the shared set: only this page and the attendance dialog show tables and progress bars.
import '@mantine/core/styles/Table.css';
import '@mantine/core/styles/Progress.css';
import type { ComponentType } from 'react';
import { Anchor, Badge, Button, Progress, Stack, Table, Text } from '@mantine/core';
import { IconArrowLeft, IconDownload, IconUsers } from '@tabler/icons-react';
import { Link, useParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import type { CourseStudent } from '@mooz/contract/teaching';
import { messages } from '@mooz/contract/messages';
import { ListEmpty, ListError, ListLoading, PageHeader } from '../../components/list-states';
import { paths } from '../../config/paths';
import { messageOf } from '../../lib/api';
import { isolate } from '../../lib/bidi';
import { formatDate } from '../../lib/format';
import { translateServerMessage } from '../../lib/server-message';
import { notify } from '../../lib/toasts';
import { useCourse } from './use-courses';
import { useCourseStudents, useStudentsCsv } from './use-teaching';
import classes from './course-students.module.css';
import { dateTimeFormat } from '../../lib/intl';

function BatchCell({ batch }: { batch: CourseStudent['batch'] }) {
  const { t, i18n } = useTranslation();
  return (
    <Stack gap={2}>
      <Badge variant="light" color={batch.kind === 'weekdays' ? 'mooz' : 'cyan'} w="fit-content">
        {batch.kind === 'weekdays' ? t('enroll.weekdaysBatch') : t('enroll.weekendsBatch')}
      </Badge>
      <Text size="sm">{t('myCourses.dates', { start: formatDate(batch.start_date, i18n.language), end: formatDate(batch.end_date, i18n.language) })}</Text>
      <Text size="xs" c="dimmed">
        {isolate(`${batch.times.join(' · ')} (${batch.time_zone})`)}
      </Text>
    </Stack>
  );
}

/** An action on one student's row, given by the app (a feature never imports another). */
type StudentAction = ComponentType<{ courseId: number; courseName: string; student: CourseStudent }>;

function StudentRow({ student, courseId, courseName, Action }: { student: CourseStudent; courseId: number; courseName: string; Action?: StudentAction }) {
  const { t, i18n } = useTranslation();
  const { attended, held } = student.attendance;
  const share = held ? Math.round((attended / held) * 100) : 0;
  return (
    <Table.Tr data-testid="student-row">
      <Table.Td data-label={t('students.column.student')}>
        <Text fw={600} style={{ overflowWrap: 'anywhere' }}>
          {student.name}
        </Text>
        <Text size="sm" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
          {student.email}
        </Text>
      </Table.Td>
      <Table.Td data-label={t('students.column.batch')}>
        <BatchCell batch={student.batch} />
      </Table.Td>
      <Table.Td data-label={t('students.column.paid')}>
        {student.paid_at ? isolate(dateTimeFormat(i18n.language, { dateStyle: 'medium' }).format(new Date(student.paid_at))) : '—'}
      </Table.Td>
      <Table.Td data-label={t('students.column.attendance')}>
        <Text size="sm" data-testid="student-attendance">
          {t('students.attended', { attended, held })}
        </Text>
        {held > 0 && <Progress value={share} size="sm" mt={4} aria-label={t('students.attendedShare', { share })} />}
      </Table.Td>
      {Action && (
        <Table.Td data-label={t('students.column.certificate')}>
          <Action courseId={courseId} courseName={courseName} student={student} />
        </Table.Td>
      )}
    </Table.Tr>
  );
}

export function CourseStudentsPage({ studentAction }: { studentAction?: StudentAction } = {}) {
  const { t } = useTranslation();
  const id = Number(useParams().id);
  const course = useCourse(id);
  const students = { list: useCourseStudents(id), csv: useStudentsCsv(id) };
  const name = course.data?.data.name ?? '';

  const exportButton = (
    <Button
      leftSection={<IconDownload size={16} />}
      variant="light"
      loading={students.csv.isPending}
      disabled={!students.list.data?.data.length}
      onClick={() =>
        students.csv.mutate(undefined, {
          onSuccess: (file) => notify.success(t('students.exported', { file })),
          onError: (error) => notify.error(translateServerMessage(t, messageOf(error, messages.unexpected))),
        })
      }
      data-testid="export-students"
    >
      {t('students.export')}
    </Button>
  );

  return (
    <div data-testid="course-students-page">
      <Anchor component={Link} to={paths.myCourses} size="sm" mb="sm" display="inline-flex" style={{ alignItems: 'center', gap: 6 }}>
        <IconArrowLeft size={14} aria-hidden="true" />
        {t('teach.back')}
      </Anchor>
      <PageHeader title={name ? t('students.titleOf', { name }) : t('students.title')} description={t('students.subtitle')} actions={exportButton} />
      {students.list.isPending ? (
        <ListLoading testId="students-loading" count={2} height={120} list />
      ) : students.list.isError ? (
        <ListError
          testId="students-error"
          title={t('students.errorTitle')}
          message={translateServerMessage(t, messageOf(students.list.error, messages.unexpected))}
          onRetry={() => void students.list.refetch()}
          retrying={students.list.isFetching}
        />
      ) : students.list.data.data.length === 0 ? (
        <ListEmpty testId="students-empty" icon={<IconUsers size={36} />} title={t('students.empty.title')} description={t('students.empty.description')} />
      ) : (
        <Table className={classes.table} verticalSpacing="sm" highlightOnHover withTableBorder captionSide="bottom" data-testid="students-table">
          <Table.Caption>{t('students.count', { count: students.list.data.data.length })}</Table.Caption>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>{t('students.column.student')}</Table.Th>
              <Table.Th>{t('students.column.batch')}</Table.Th>
              <Table.Th>{t('students.column.paid')}</Table.Th>
              <Table.Th>{t('students.column.attendance')}</Table.Th>
              {studentAction && <Table.Th>{t('students.column.certificate')}</Table.Th>}
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {students.list.data.data.map((student) => (
              <StudentRow key={student.id} student={student} courseId={id} courseName={name} Action={studentAction} />
            ))}
          </Table.Tbody>
        </Table>
      )}
    </div>
  );
}
