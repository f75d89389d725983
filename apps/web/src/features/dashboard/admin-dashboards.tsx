// Admins see both dashboards: teaching (the default) or learning, for the whole platform or for one
// teacher or student picked from the admin users list (searched by name or email on the server).
import { useMemo, useState } from 'react';
import { Group, SegmentedControl, Select, Stack, Text } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { IconSearch } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { StudentDashboard } from './student-dashboard';
import { TeacherDashboard } from './teacher-dashboard';
import { usePeopleOf } from './use-dashboards';
import classes from './dashboard.module.css';

type View = 'teacher' | 'student';
interface Picked {
  value: string;
  label: string;
}

function PersonPicker({ role, picked, onPick }: { role: View; picked: Picked | null; onPick(person: Picked | null): void }) {
  const { t } = useTranslation();
  const [search, setSearch] = useState('');
  const [debounced] = useDebouncedValue(search, 250);
  // While a person is shown, the box holds their label: that is not a search.
  const searching = picked && search === picked.label ? '' : debounced;
  const people = usePeopleOf(role, searching, true);
  const options = useMemo(() => {
    const list = (people.data?.items ?? []).map((user) => ({
      value: String(user.id),
      label: `${`${user.first_name} ${user.last_name}`.trim() || user.email} · ${user.email}`,
    }));
    return picked && !list.some((option) => option.value === picked.value) ? [picked, ...list] : list;
  }, [people.data, picked]);

  return (
    <Select
      className={classes.picker}
      label={role === 'teacher' ? t('dashboard.admin.teacher') : t('dashboard.admin.student')}
      placeholder={t('dashboard.admin.wholePlatform')}
      data={options}
      value={picked?.value ?? null}
      onChange={(value, option) => onPick(value ? { value, label: option.label } : null)}
      searchable
      clearable
      searchValue={search}
      onSearchChange={setSearch}
      filter={({ options: all }) => all}
      nothingFoundMessage={people.isFetching ? t('common.loading') : t('dashboard.admin.nobody')}
      leftSection={<IconSearch size={16} aria-hidden="true" />}
      clearButtonProps={{ 'aria-label': t('dashboard.admin.clear') }}
      comboboxProps={{ withinPortal: true }}
      data-testid={`${role}-picker`}
    />
  );
}

export function AdminDashboards() {
  const { t } = useTranslation();
  const [view, setView] = useState<View>('teacher');
  const [teacher, setTeacher] = useState<Picked | null>(null);
  const [student, setStudent] = useState<Picked | null>(null);
  const picked = view === 'teacher' ? teacher : student;

  return (
    <Stack gap="lg" data-testid="admin-dashboards">
      <Group justify="space-between" align="flex-end" gap="md" wrap="wrap">
        <SegmentedControl
          value={view}
          onChange={(value) => setView(value as View)}
          data={[
            { value: 'teacher', label: t('dashboard.admin.teaching') },
            { value: 'student', label: t('dashboard.admin.learning') },
          ]}
          aria-label={t('dashboard.admin.whichDashboard')}
          data-testid="admin-dashboard-view"
        />
        {view === 'teacher' ? (
          <PersonPicker key="teacher" role="teacher" picked={teacher} onPick={setTeacher} />
        ) : (
          <PersonPicker key="student" role="student" picked={student} onPick={setStudent} />
        )}
      </Group>
      <Text c="dimmed" size="sm" data-testid="admin-dashboard-scope">
        {picked ? t('dashboard.admin.scopeOne', { name: picked.label.split(' · ')[0] }) : t(view === 'teacher' ? 'dashboard.admin.scopeTeaching' : 'dashboard.admin.scopeLearning')}
      </Text>
      {view === 'teacher' ? (
        <TeacherDashboard teacherId={teacher ? Number(teacher.value) : null} platform={!teacher} own={false} />
      ) : (
        <StudentDashboard studentId={student ? Number(student.value) : null} />
      )}
    </Stack>
  );
}
