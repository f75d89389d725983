// Server state of the sessions list and scheduling. Failed fetches toast the server's message or
// 'Failed to fetch sessions'; a message that comes with a successful fetch is a success toast.
import { useEffect } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { SessionInput } from '@mooz/contract/courses';
import { messages } from '@mooz/contract/messages';
import { apiRoutes } from '@mooz/contract/api-routes';
import { call, messageOf } from '../../lib/api';
import { translateServerMessage } from '../../lib/server-message';
import { notify } from '../../lib/toasts';

export const sessionKeys = { all: ['sessions'] as const, taught: ['my-courses'] as const };

/**
 * Status and can_join come from the server's clock, and a teacher may cancel or move a session at any
 * time: the list is asked again every 15 s while the page is open, and whenever the window regains
 * focus. Polling rather than a socket event: the app holds no socket outside a meeting, and a 15 s poll
 * of a list the server answers from memory costs little.
 */
const REFRESH_MS = 15_000;

export function useSessions() {
  const { t } = useTranslation();
  const query = useQuery({
    queryKey: sessionKeys.all,
    queryFn: ({ signal }) => call(apiRoutes.sessions.list, { signal }),
    refetchInterval: REFRESH_MS,
    refetchOnWindowFocus: 'always',
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
    queryFn: ({ signal }) => call(apiRoutes.courses.mine, { signal }),
    enabled,
  });
}

export function useScheduleSession() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: SessionInput) => call(apiRoutes.sessions.schedule, { body }),
    onSuccess: () => client.invalidateQueries({ queryKey: sessionKeys.all }),
  });
}
