// /admin/courses: the courses of every teacher, found by name or teacher and narrowed by state, each
// with its paying students and batches, and a link to its page.
import { Anchor, Badge } from '@mantine/core';
import { IconBooks } from '@tabler/icons-react';
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import { courseStates, type AdminCourse } from '@mooz/contract/admin';
import { PageHeader } from '../../components/list-states';
import { paths } from '../../config/paths';
import { formatPrice } from '../../lib/format';
import { DataList, type Column } from './data-list';
import { Filters, useListState } from './filters';
import { Person, useChoices } from './labels';
import { useAdminCourses } from './use-admin';

const stateOf = (course: AdminCourse) => (course.archived_at ? 'archived' : course.published ? 'published' : 'unpublished');
const stateColor = { published: 'teal.9', unpublished: 'gray.7', archived: 'orange.4' } as const;

export function AdminCoursesPage() {
  const { t, i18n } = useTranslation();
  const list = useListState({ q: '', state: '' });
  const courses = useAdminCourses(list.filters, list.page);
  const choices = useChoices();

  const columns: Column<AdminCourse>[] = [
    {
      key: 'name',
      header: t('admin.courses.name'),
      cell: (c) => (
        <Anchor component={Link} to={paths.course(c.id)} size="sm" fw={500}>
          {c.name}
        </Anchor>
      ),
    },
    { key: 'teacher', header: t('admin.courses.teacher'), cell: (c) => <Person name={c.teacher.name} email={c.teacher.email} /> },
    {
      key: 'state',
      header: t('admin.courses.state'),
      cell: (c) => (
        <Badge variant="filled" autoContrast color={stateColor[stateOf(c)]}>
          {t(`admin.courseState.${stateOf(c)}`)}
        </Badge>
      ),
    },
    { key: 'price', header: t('admin.courses.price'), cell: (c) => formatPrice(c.price, c.currency, i18n.language) },
    { key: 'students', header: t('admin.courses.students'), cell: (c) => c.students },
    { key: 'batches', header: t('admin.courses.batches'), cell: (c) => c.batches },
  ];

  return (
    <div data-testid="admin-courses-page">
      <PageHeader title={t('admin.courses.title')} description={t('admin.courses.subtitle')} />
      <Filters
        search={list.filters.q}
        onSearch={(q) => list.set('q', q)}
        searchLabel={t('admin.courses.search')}
        values={list.filters}
        onChoose={list.set}
        choices={[{ name: 'state', label: t('admin.courses.state'), options: choices('courseState', courseStates, 'admin.anyState') }]}
      />
      <DataList
        label={t('admin.courses.title')}
        testId="admin-courses"
        query={courses}
        columns={columns}
        rowKey={(c) => c.id}
        page={list.page}
        onPage={list.setPage}
        errorTitle={t('admin.courses.error')}
        empty={{ icon: <IconBooks size={32} />, title: t('admin.courses.empty.title'), description: t('admin.courses.empty.description') }}
      />
    </div>
  );
}
