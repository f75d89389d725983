// Server state of a course's batches, as its teacher changes them: open one, change its seats, remove
// it. Each change, and each refusal (someone may have bought a seat meanwhile), refreshes the course
// (its batches and their summary) and the lists that show it.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRoutes } from '@mooz/contract/api-routes';
import type { BatchInput } from '@mooz/contract/batches';
import { call } from '../../lib/api';
import { courseKeys } from './use-courses';

function useRefreshCourse(courseId: number) {
  const client = useQueryClient();
  return () =>
    Promise.all([
      client.invalidateQueries({ queryKey: courseKeys.one(courseId), exact: true }),
      client.invalidateQueries({ queryKey: courseKeys.catalogue, exact: true }),
      client.invalidateQueries({ queryKey: courseKeys.mine }),
    ]);
}

export function useOpenBatch(courseId: number) {
  const refresh = useRefreshCourse(courseId);
  return useMutation({
    mutationFn: (body: BatchInput) => call(apiRoutes.batches.create, { params: { id: courseId }, body }),
    onSettled: refresh,
  });
}

export function useChangeSeats(courseId: number) {
  const refresh = useRefreshCourse(courseId);
  return useMutation({
    mutationFn: ({ batchId, capacity }: { batchId: number; capacity: number }) =>
      call(apiRoutes.batches.update, { params: { id: courseId, batchId }, body: { capacity } }),
    onSettled: refresh,
  });
}

export function useRemoveBatch(courseId: number) {
  const refresh = useRefreshCourse(courseId);
  return useMutation({
    mutationFn: (batchId: number) => call(apiRoutes.batches.remove, { params: { id: courseId, batchId } }),
    onSettled: refresh,
  });
}
