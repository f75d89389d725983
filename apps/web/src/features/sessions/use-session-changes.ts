// Server state of a teacher's changes to a session: edit, cancel, and its attendance (also as CSV).
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiRoutes } from '@mooz/contract/api-routes';
import type { CancelSessionBody, SessionPatch } from '@mooz/contract/teaching';
import { call } from '../../lib/api';
import { downloadFile } from '../../lib/download';
import { sessionKeys } from './use-sessions';

export function useEditSession(id: number) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: SessionPatch) => call(apiRoutes.sessions.update, { params: { id }, body }),
    onSuccess: () => client.invalidateQueries({ queryKey: sessionKeys.all }),
  });
}

export function useCancelSession(id: number) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: CancelSessionBody) => call(apiRoutes.sessions.cancel, { params: { id }, body }),
    onSuccess: () => client.invalidateQueries({ queryKey: sessionKeys.all }),
  });
}

export function useSessionAttendance(id: number, enabled: boolean) {
  return useQuery({
    queryKey: [...sessionKeys.all, id, 'attendance'],
    queryFn: ({ signal }) => call(apiRoutes.sessions.attendance, { params: { id }, signal }),
    enabled,
  });
}

/** Saves the session's attendance as a CSV file; resolves with the file's name. */
export function useAttendanceCsv(id: number) {
  return useMutation({ mutationFn: () => downloadFile(apiRoutes.sessions.attendanceCsv, { id }, `attendance-${id}.csv`) });
}
