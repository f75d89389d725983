// Server state of a course's assignments: the list (the caller's own answer, or the counts to review),
// one assignment's answers for its teacher, and every change (create, edit, delete, attach, answer,
// review). Files go with a progress bar and a cancel (useFileUpload, over lib/recording-upload's states).
import { useCallback, useEffect, useReducer, useRef } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiRoutes } from '@mooz/contract/api-routes';
import { assignmentFileField, submissionTextField, type Assignment, type Submission } from '@mooz/contract/assignments';
import { pathOf } from '@mooz/contract/endpoint';
import { api, call } from '../../lib/api';
import { uploadReducer } from '../../lib/recording-upload';

const assignmentKeys = {
  all: ['assignments'] as const,
  course: (courseId: number) => ['assignments', 'course', courseId] as const,
  submissions: (id: number) => ['assignments', 'submissions', id] as const,
};

/** Dashboards count assignments: what changes them refreshes them too (whatever their keys' details). */
const isDashboard = (query: { queryKey: readonly unknown[] }) => /^dashboard/.test(String(query.queryKey[0]));

export function useCourseAssignments(courseId: number, enabled = true) {
  return useQuery({
    queryKey: assignmentKeys.course(courseId),
    queryFn: ({ signal }) => call(apiRoutes.assignments.list, { params: { id: courseId }, signal }),
    enabled: enabled && Number.isInteger(courseId) && courseId > 0,
    // Others change it (a review, a new assignment): asked again each time the tab opens, shown meanwhile.
    staleTime: 0,
  });
}

export function useSubmissions(id: number, enabled: boolean) {
  return useQuery({
    queryKey: assignmentKeys.submissions(id),
    queryFn: ({ signal }) => call(apiRoutes.assignments.submissions, { params: { id }, signal }),
    enabled,
  });
}

function useRefreshAssignments() {
  const client = useQueryClient();
  return useCallback(
    () =>
      Promise.all([
        client.invalidateQueries({ queryKey: assignmentKeys.all }),
        client.invalidateQueries({ predicate: isDashboard }),
      ]),
    [client],
  );
}

export function useCreateAssignment(courseId: number) {
  const refresh = useRefreshAssignments();
  return useMutation({
    mutationFn: (body: { title: string; instructions: string; due_at: string | null }) =>
      call(apiRoutes.assignments.create, { params: { id: courseId }, body }),
    onSuccess: refresh,
  });
}

export function useUpdateAssignment() {
  const refresh = useRefreshAssignments();
  return useMutation({
    mutationFn: ({
      id,
      patch,
    }: {
      id: number;
      patch: { title?: string; instructions?: string; due_at?: string | null };
    }) => call(apiRoutes.assignments.update, { params: { id }, body: patch }),
    onSuccess: refresh,
  });
}

export function useDeleteAssignment() {
  const refresh = useRefreshAssignments();
  return useMutation({
    mutationFn: (id: number) => call(apiRoutes.assignments.remove, { params: { id } }),
    onSuccess: refresh,
  });
}

export function useDetachFile() {
  const refresh = useRefreshAssignments();
  return useMutation({
    mutationFn: (id: number) => call(apiRoutes.assignments.detach, { params: { id } }),
    onSuccess: refresh,
  });
}

export function useReview(assignmentId: number) {
  const client = useQueryClient();
  const refresh = useRefreshAssignments();
  return useMutation({
    mutationFn: ({
      id,
      body,
    }: {
      id: number;
      body: { grade: number | null; passed: boolean | null; feedback: string };
    }) => call(apiRoutes.assignments.review, { params: { id }, body }),
    onSuccess: async () => {
      await client.invalidateQueries({ queryKey: assignmentKeys.submissions(assignmentId) });
      await refresh();
    },
  });
}

/** An upload's destination: the assignment's attachment, or the caller's answer (with its text). */
type UploadTarget =
  | { kind: 'attachment'; assignmentId: number; file: File }
  | { kind: 'answer'; assignmentId: number; text: string; file: File | null };

function formOf(target: UploadTarget): { path: string; form: FormData } {
  const form = new FormData();
  if (target.kind === 'answer') {
    // The text first: a multipart reader sees it before the file's bytes.
    form.append(submissionTextField, target.text);
    if (target.file) form.append(assignmentFileField, target.file, target.file.name);
    return { path: pathOf(apiRoutes.assignments.submit, { id: target.assignmentId }), form };
  }
  form.append(assignmentFileField, target.file, target.file.name);
  return { path: pathOf(apiRoutes.assignments.attach, { id: target.assignmentId }), form };
}

type UploadOutcome<T> =
  { ok: true; data: T; message?: string } | { ok: false; error: unknown } | { ok: false; cancelled: true };

/**
 * Sends an attachment or an answer with its progress (the recordings' upload states: uploading with
 * bytes sent, uploadSuccess, uploadError) and a cancel that aborts the request. Leaving stops it.
 */
export function useFileUpload() {
  const [state, dispatch] = useReducer(uploadReducer, { status: 'idle' });
  const controller = useRef<AbortController | null>(null);
  const refresh = useRefreshAssignments();

  useEffect(() => () => controller.current?.abort(), []);

  const send = useCallback(
    async <T extends Assignment | Submission>(target: UploadTarget): Promise<UploadOutcome<T>> => {
      controller.current?.abort();
      const abort = new AbortController();
      controller.current = abort;
      const { path, form } = formOf(target);
      dispatch({ type: 'start', total: target.file?.size ?? 0 });
      try {
        const response = await api<T>(path, {
          method: 'POST',
          formData: form,
          signal: abort.signal,
          onUploadProgress: (fraction) => dispatch({ type: 'progress', fraction }),
        });
        dispatch({ type: 'progress', fraction: 1 });
        dispatch({ type: 'done', recording: null });
        void refresh();
        return { ok: true, data: response.data, message: response.message };
      } catch (error) {
        if (abort.signal.aborted) return { ok: false, cancelled: true };
        dispatch({ type: 'failed', message: error instanceof Error ? error.message : String(error) });
        return { ok: false, error };
      } finally {
        if (controller.current === abort) controller.current = null;
      }
    },
    [refresh],
  );

  const cancel = useCallback(() => {
    controller.current?.abort();
    controller.current = null;
    dispatch({ type: 'reset' });
  }, []);

  const reset = useCallback(() => dispatch({ type: 'reset' }), []);

  return { state, send, cancel, reset };
}
