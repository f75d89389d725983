// Server state of a teacher's course tools: its students (and their CSV), publishing, and removal.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiRoutes } from '@mooz/contract/api-routes';
import { call } from '../../lib/api';
import { downloadFile } from '../../lib/download';
import { courseKeys } from './use-courses';

const teachingKeys = {
  students: (id: number) => ['courses', id, 'students'] as const,
  removal: (id: number) => ['courses', id, 'removal'] as const,
};

export function useCourseStudents(id: number) {
  return useQuery({
    queryKey: teachingKeys.students(id),
    queryFn: ({ signal }) => call(apiRoutes.courses.students, { params: { id }, signal }),
    enabled: Number.isInteger(id) && id > 0,
  });
}

/** What deleting would do (delete, or archive a bought course), asked each time the dialog opens. */
export function useRemovalOutcome(id: number, enabled: boolean) {
  return useQuery({
    queryKey: teachingKeys.removal(id),
    queryFn: ({ signal }) => call(apiRoutes.courses.removal, { params: { id }, signal }),
    enabled,
    staleTime: 0,
  });
}

function useRefreshCourses() {
  const client = useQueryClient();
  return () =>
    Promise.all([client.invalidateQueries({ queryKey: courseKeys.catalogue }), client.invalidateQueries({ queryKey: courseKeys.mine })]);
}

export function useRemoveCourse() {
  const refresh = useRefreshCourses();
  return useMutation({ mutationFn: (id: number) => call(apiRoutes.courses.remove, { params: { id } }), onSuccess: refresh });
}

export function useSetPublished() {
  const refresh = useRefreshCourses();
  return useMutation({
    mutationFn: ({ id, published }: { id: number; published: boolean }) => call(apiRoutes.courses.update, { params: { id }, body: { published } }),
    onSuccess: refresh,
  });
}

export function useStudentsCsv(id: number) {
  return useMutation({ mutationFn: () => downloadFile(apiRoutes.courses.studentsCsv, { id }, `students-${id}.csv`) });
}
