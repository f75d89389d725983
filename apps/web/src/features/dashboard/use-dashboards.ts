// Server state of the dashboards: the student's and the teacher's figures for the week cut in the
// browser's time zone (`tz`), and, for admins, whose figures (a student's or teacher's id; none = the
// whole platform). The screens show the failure themselves (error card with a retry), so no toast.
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { apiRoutes } from '@mooz/contract/api-routes';
import type { UserType } from '@mooz/contract/permissions';
import { ApiError, call } from '../../lib/api';
import { viewerTimeZone } from '../../lib/intl';

const dashboardKeys = {
  all: ['dashboards'] as const,
  student: (tz: string | undefined, studentId: number | null) => ['dashboards', 'student', tz ?? 'UTC', studentId] as const,
  teacher: (tz: string | undefined, teacherId: number | null) => ['dashboards', 'teacher', tz ?? 'UTC', teacherId] as const,
};

/** A refused or unknown request does not get better by asking again; a network or server failure may. */
const retryable = (count: number, error: unknown) =>
  count < 2 && !(error instanceof ApiError && error.status >= 400 && error.status < 500);

export function useStudentDashboard(studentId: number | null = null) {
  const tz = viewerTimeZone();
  return useQuery({
    queryKey: dashboardKeys.student(tz, studentId),
    queryFn: async ({ signal }) =>
      (await call(apiRoutes.dashboards.student, { query: { tz, ...(studentId !== null && { student_id: studentId }) }, signal })).data,
    retry: retryable,
    placeholderData: keepPreviousData,
  });
}

export function useTeacherDashboard(teacherId: number | null = null) {
  const tz = viewerTimeZone();
  return useQuery({
    queryKey: dashboardKeys.teacher(tz, teacherId),
    queryFn: async ({ signal }) =>
      (await call(apiRoutes.dashboards.teacher, { query: { tz, ...(teacherId !== null && { teacher_id: teacherId }) }, signal })).data,
    retry: retryable,
    placeholderData: keepPreviousData,
  });
}

/** Admins pick whose dashboard: the first 50 accounts of a role matching what was typed (admin users endpoint). */
export function usePeopleOf(role: Extract<UserType, 'student' | 'teacher'>, search: string, enabled: boolean) {
  const q = search.trim() || undefined;
  return useQuery({
    queryKey: ['dashboards', 'people', role, q ?? ''],
    queryFn: async ({ signal }) => (await call(apiRoutes.admin.users, { query: { role, q, limit: 50, offset: 0 }, signal })).data,
    enabled,
    placeholderData: keepPreviousData,
    retry: retryable,
  });
}
