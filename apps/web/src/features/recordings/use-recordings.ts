// Server state of recordings: the courses that have some, one course's, the caller's meeting rooms',
// one recording for the player, and deleting one. A failed list toasts the server's message or 'Failed
// to fetch recorded videos'; a message that comes with a successful fetch is a success toast (the spec).
import { useEffect } from 'react';
import { useMutation, useQuery, useQueryClient, type UseQueryResult } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { apiRoutes } from '@mooz/contract/api-routes';
import { messages } from '@mooz/contract/messages';
import type { Recording, RecordingGroup } from '@mooz/contract/recordings';
import { call, messageOf, type Envelope } from '../../lib/api';
import { recordingKeys } from '../../lib/recording-upload';
import { translateServerMessage } from '../../lib/server-message';
import { notify } from '../../lib/toasts';

export { recordingKeys };

/** The spec's toasts for a list: its failure (once per failure), and a message that came with its data. */
function useListToasts(query: UseQueryResult<Envelope<unknown>>, id: string) {
  const { t } = useTranslation();
  useEffect(() => {
    if (query.isError) notify.error(translateServerMessage(t, messageOf(query.error, messages.failedToFetchRecordedVideos)), { id: `${id}-error` });
  }, [query.isError, query.errorUpdatedAt, query.error, t, id]);
  const message = query.data?.message;
  useEffect(() => {
    if (query.isSuccess && message) notify.success(translateServerMessage(t, message), { id: `${id}-message` });
  }, [query.isSuccess, query.dataUpdatedAt, message, t, id]);
}

/** Newest first, whatever order the server sent. */
export const newestFirst = <T extends { created_at: string }>(list: T[]): T[] =>
  [...list].sort((a, b) => new Date(b.created_at).getTime() - new Date(a.created_at).getTime());

export function useRecordingGroups() {
  const query = useQuery({
    queryKey: recordingKeys.groups,
    queryFn: async ({ signal }) => (await call(apiRoutes.recordings.list, { signal })) as Envelope<RecordingGroup[]>,
  });
  useListToasts(query, 'recordings');
  return query;
}

/** The caller's recordings of ad hoc meeting rooms (not of a course's sessions). */
export function useMeetingRecordings() {
  const query = useQuery({
    queryKey: recordingKeys.meetings,
    queryFn: async ({ signal }) => (await call(apiRoutes.recordings.list, { query: { meetings: true }, signal })) as Envelope<Recording[]>,
  });
  useListToasts(query, 'meeting-recordings');
  return query;
}

export function useCourseRecordings(courseId: number) {
  const query = useQuery({
    queryKey: recordingKeys.course(courseId),
    queryFn: async ({ signal }) => (await call(apiRoutes.recordings.list, { query: { course_id: courseId }, signal })) as Envelope<Recording[]>,
    enabled: Number.isInteger(courseId) && courseId > 0,
    // A course nobody may see is not worth asking about three times.
    retry: (count, error) => count < 2 && !isNotFound(error),
  });
  useListToasts(query, `course-recordings-${courseId}`);
  return query;
}

/**
 * One recording with freshly signed links. Asked once per visit (a refetch signs new links, and a new
 * link reloads the video): the player asks again itself, before the links expire.
 */
export function useRecording(id: number) {
  const { t } = useTranslation();
  const query = useQuery({
    queryKey: recordingKeys.one(id),
    queryFn: ({ signal }) => call(apiRoutes.recordings.get, { params: { id }, signal }),
    enabled: Number.isInteger(id) && id > 0,
    staleTime: Infinity,
    refetchOnWindowFocus: false,
    refetchOnReconnect: false,
    retry: (count, error) => count < 2 && !isNotFound(error),
  });
  useEffect(() => {
    if (query.isError && !isNotFound(query.error)) {
      notify.error(translateServerMessage(t, messageOf(query.error, messages.failedToFetchRecordedVideos)), { id: 'recording-error' });
    }
  }, [query.isError, query.errorUpdatedAt, query.error, t]);
  return query;
}

/** 404 (not there, or not for this caller: the server says the same) and 400 (not an id) mean "no such recording". */
export function isNotFound(error: unknown): boolean {
  const status = (error as { status?: unknown } | null)?.status;
  return status === 404 || status === 400;
}

export function useDeleteRecording() {
  const { t } = useTranslation();
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => call(apiRoutes.recordings.remove, { params: { id } }),
    onSuccess: (response, id) => {
      notify.success(translateServerMessage(t, response?.message ?? messages.recordingDeleted));
      client.removeQueries({ queryKey: recordingKeys.one(id) });
      return client.invalidateQueries({ queryKey: recordingKeys.all });
    },
    onError: (error) => notify.error(translateServerMessage(t, messageOf(error, messages.unexpected))),
  });
}
