// Server state of the courses area: the catalogue, my courses and one course (a teacher's edits are
// saved by use-save-course.ts).
// Failed fetches toast the server's message or the spec's fallback; a message on success is a success toast.
import { useEffect } from 'react';
import { useQuery, type UseQueryResult } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { messages, type MessageKey } from '@mooz/contract/messages';
import { apiRoutes } from '@mooz/contract/api-routes';
import { call, messageOf, type Envelope } from '../../lib/api';
import { translateServerMessage } from '../../lib/server-message';
import { notify } from '../../lib/toasts';

export const courseKeys = {
  catalogue: ['courses'] as const,
  mine: ['my-courses'] as const,
  one: (id: number) => ['courses', id] as const,
  paymentsConfig: ['payments-config'] as const,
};

/** The spec's toasts for a list: the server message (or `fallback`) on failure, its message on success. */
function useFetchToasts<T>(query: UseQueryResult<Envelope<T>>, fallback: MessageKey, id: string) {
  const { t } = useTranslation();
  useEffect(() => {
    if (query.isError) notify.error(translateServerMessage(t, messageOf(query.error, messages[fallback])), { id: `${id}-error` });
    // Once per failed fetch, not again when the language or the fallback changes.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [query.isError, query.errorUpdatedAt]);
  useEffect(() => {
    const message = query.data?.message;
    if (query.isSuccess && message) notify.success(translateServerMessage(t, message), { id: `${id}-message` });
    // Once per successful fetch.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [query.isSuccess, query.dataUpdatedAt]);
}

export function useCourses() {
  const query = useQuery({ queryKey: courseKeys.catalogue, queryFn: ({ signal }) => call(apiRoutes.courses.catalogue, { signal }) });
  useFetchToasts(query, 'failedToFetchCourses', 'courses');
  return query;
}

export function useMyCourses() {
  const query = useQuery({ queryKey: courseKeys.mine, queryFn: ({ signal }) => call(apiRoutes.courses.mine, { signal }) });
  useFetchToasts(query, 'failedToFetchMyCourses', 'my-courses');
  return query;
}

export function useCourse(id: number) {
  return useQuery({
    queryKey: courseKeys.one(id),
    queryFn: ({ signal }) => call(apiRoutes.courses.one, { params: { id }, signal }),
    enabled: Number.isInteger(id) && id > 0,
    // A 404 will not turn into a course by asking again.
    retry: false,
  });
}
