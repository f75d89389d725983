// Server state of the sessions list and scheduling. Failed fetches toast the server's message or
// 'Failed to fetch sessions'; a message on success is a success toast (spec §8).
import { useEffect } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { MyCourse, Session, SessionInput } from '@mooz/contract/courses';
import { messages } from '@mooz/contract/messages';
import { api, messageOf } from '../../lib/api';
import { translateServerMessage } from '../../lib/server-message';
import { notify } from '../../lib/toasts';

export const sessionKeys = { all: ['sessions'] as const, taught: ['my-courses'] as const };

/** Status and can_join come from the server's clock; a minute-by-minute refresh keeps the join button honest. */
const REFRESH_MS = 60_000;

export function useSessions() {
  const { t } = useTranslation();
  const query = useQuery({
    queryKey: sessionKeys.all,
    queryFn: ({ signal }) => api<Session[]>('/api/classes/sessions/', { signal }),
    refetchInterval: REFRESH_MS,
  });
  useEffect(() => {
    if (query.isError) notify.error(translateServerMessage(t, messageOf(query.error, messages.failedToFetchSessions)), { id: 'sessions-error' });
  }, [query.isError, query.errorUpdatedAt, query.error, t]);
  const message = query.data?.message;
  useEffect(() => {
    if (query.isSuccess && message) notify.success(translateServerMessage(t, message), { id: 'sessions-message' });
  }, [query.isSuccess, query.dataUpdatedAt, message, t]);
  return query;
}

/** The courses a teacher may schedule sessions in. */
export function useTaughtCourses(enabled: boolean) {
  return useQuery({
    queryKey: sessionKeys.taught,
    queryFn: ({ signal }) => api<MyCourse[]>('/api/courses/my_courses/', { signal }),
    enabled,
  });
}

export function useScheduleSession() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: SessionInput) => api<Session>('/api/classes/sessions/', { method: 'POST', body }),
    onSuccess: () => client.invalidateQueries({ queryKey: sessionKeys.all }),
  });
}
