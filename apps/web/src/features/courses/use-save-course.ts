// A teacher's course saved: created, or its fields updated; the catalogue and my courses are fetched
// again. Apart from use-courses.ts, so the catalogue does not bring TanStack's mutations with it.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { CourseInput, CoursePatch } from '@mooz/contract/courses';
import { apiRoutes } from '@mooz/contract/api-routes';
import { call } from '../../lib/api';
import { courseKeys } from './use-courses';

export function useSaveCourse(id?: number) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (values: CourseInput | CoursePatch) =>
      id === undefined
        ? call(apiRoutes.courses.create, { body: values as CourseInput })
        : call(apiRoutes.courses.update, { params: { id }, body: values }),
    onSuccess: async () => {
      await Promise.all([
        client.invalidateQueries({ queryKey: courseKeys.catalogue }),
        client.invalidateQueries({ queryKey: courseKeys.mine }),
      ]);
    },
  });
}
