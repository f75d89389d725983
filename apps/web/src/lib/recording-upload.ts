// Uploading a session's recording from disk (contract: POST /api/classes/sessions/{roomId}/upload-recording/,
// multipart field `recording` named `{roomId}-{userId}.webm`), with the spec's states: uploading (with
// its progress), uploadSuccess and uploadError, and a cancel that aborts the request. Shared by the
// sessions page's actions and anything else that offers the upload, so it lives outside the features.
import { useCallback, useEffect, useReducer, useRef } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { apiRoutes } from '@mooz/contract/api-routes';
import { pathOf } from '@mooz/contract/endpoint';
import { messages } from '@mooz/contract/messages';
import { uploadFieldName, type Recording } from '@mooz/contract/recordings';
import { api, messageOf } from './api';
import { translateServerMessage } from './server-message';
import { notify } from './toasts';
import { readStoredUser } from './stored-auth';

/** The query keys of everything recordings: an upload or a deletion refreshes them all. */
export const recordingKeys = {
  all: ['recordings'] as const,
  groups: ['recordings', 'groups'] as const,
  meetings: ['recordings', 'meetings'] as const,
  course: (courseId: number) => ['recordings', 'course', courseId] as const,
  one: (id: number) => ['recordings', 'one', id] as const,
};

/** The name the spec gives the uploaded file; without a known user id (not yet fetched) the room's alone. */
export function uploadFileName(roomId: string, userId: number | string | undefined): string {
  return userId === undefined || userId === '' ? `${roomId}.webm` : `${roomId}-${userId}.webm`;
}

/** Whether a chosen file can be a WebM recording (the server checks the bytes; this spares a doomed upload). */
export function looksLikeWebm(file: Pick<File, 'name' | 'type'>): boolean {
  return file.type === 'video/webm' || file.type === 'audio/webm' || (file.type === '' && /\.webm$/i.test(file.name));
}

/** How much of a file the browser reads to judge it, as the server does (http/checked-upload.ts). */
const headBytes = 4096;
const ebmlMagic = 0x1a45dfa3;
const docTypeId = 0x4282;

/** An EBML variable-length integer at `at`: its value (marker kept for ids) and length, or null. */
function vint(bytes: Uint8Array, at: number, keepMarker: boolean): { value: number; length: number } | null {
  const first = bytes[at];
  if (first === undefined || first === 0) return null;
  const length = Math.clz32(first) - 23;
  if (length > 8 || at + length > bytes.length) return null;
  let value = keepMarker ? first : first & (0xff >> length);
  for (let i = 1; i < length; i++) value = value * 256 + bytes[at + i]!;
  return { value, length };
}

/**
 * Whether a file's first bytes are a WebM's: the EBML header whose DocType is "webm", the check the
 * server makes before storing anything (it answers 415 otherwise). Zeros named `.webm` are not.
 */
export function startsLikeWebm(bytes: Uint8Array): boolean {
  if (bytes.length < 5 || new DataView(bytes.buffer, bytes.byteOffset, 4).getUint32(0) !== ebmlMagic) return false;
  const size = vint(bytes, 4, false);
  if (!size) return false;
  const end = Math.min(bytes.length, 4 + size.length + size.value);
  for (let at = 4 + size.length; at < end; ) {
    const id = vint(bytes, at, true);
    const length = id && vint(bytes, at + id.length, false);
    if (!id || !length) return false;
    const start = at + id.length + length.length;
    if (id.value === docTypeId) {
      return String.fromCharCode(...bytes.subarray(start, Math.min(start + length.value, end))).replace(/\0+$/, '') === 'webm';
    }
    at = start + length.value;
  }
  return false;
}

/** Reads a file's first bytes and judges them (startsLikeWebm), so a doomed upload is never sent. */
export async function readsLikeWebm(file: Blob): Promise<boolean> {
  const head = file.slice(0, headBytes);
  const buffer =
    typeof head.arrayBuffer === 'function'
      ? await head.arrayBuffer()
      : // Older engines (and jsdom) read a Blob only through a FileReader.
        await new Promise<ArrayBuffer>((resolve, reject) => {
          const reader = new FileReader();
          reader.onload = () => resolve(reader.result as ArrayBuffer);
          reader.onerror = () => reject(reader.error);
          reader.readAsArrayBuffer(head);
        });
  return startsLikeWebm(new Uint8Array(buffer));
}

export type UploadState =
  | { status: 'idle' }
  | { status: 'uploading'; sent: number; total: number }
  | { status: 'uploadSuccess'; total: number; recording: Recording | null }
  | { status: 'uploadError'; message: string };

type UploadEvent =
  | { type: 'start'; total: number }
  | { type: 'progress'; fraction: number }
  | { type: 'done'; recording: Recording | null }
  | { type: 'failed'; message: string }
  | { type: 'reset' };

export function uploadReducer(state: UploadState, event: UploadEvent): UploadState {
  switch (event.type) {
    case 'start':
      return { status: 'uploading', sent: 0, total: event.total };
    case 'progress':
      // Progress of a cancelled or finished upload arrives late sometimes: only an upload moves forward.
      if (state.status !== 'uploading') return state;
      return { ...state, sent: Math.max(state.sent, Math.min(state.total, Math.round(event.fraction * state.total))) };
    case 'done':
      return state.status === 'uploading' ? { status: 'uploadSuccess', total: state.total, recording: event.recording } : state;
    case 'failed':
      return state.status === 'uploading' ? { status: 'uploadError', message: event.message } : state;
    case 'reset':
      return { status: 'idle' };
  }
}

/** Uploads to the session in room `roomId`; `cancel()` aborts the request and goes back to idle. */
export function useRecordingUpload(roomId: string) {
  const { t } = useTranslation();
  const client = useQueryClient();
  const [state, dispatch] = useReducer(uploadReducer, { status: 'idle' });
  const controller = useRef<AbortController | null>(null);

  // Leaving (closing the dialog, another page) while the bytes are going stops them.
  useEffect(() => () => controller.current?.abort(), []);

  const upload = useCallback(
    async (file: File) => {
      controller.current?.abort();
      const abort = new AbortController();
      controller.current = abort;
      dispatch({ type: 'start', total: file.size });
      // The server refuses a file that is not a WebM by its first bytes; so does the browser, before sending it.
      if (!(await readsLikeWebm(file).catch(() => false))) {
        if (abort.signal.aborted) return;
        const message = translateServerMessage(t, messages.recordingNotWebm);
        dispatch({ type: 'failed', message });
        notify.error(message, { id: 'recording-upload' });
        if (controller.current === abort) controller.current = null;
        return;
      }
      if (abort.signal.aborted) return;
      const form = new FormData();
      form.append(uploadFieldName, file, uploadFileName(roomId, readStoredUser()?.id));
      try {
        const response = await api<Recording | null>(pathOf(apiRoutes.recordings.upload, { roomId }), {
          method: 'POST',
          formData: form,
          signal: abort.signal,
          onUploadProgress: (fraction) => dispatch({ type: 'progress', fraction }),
        });
        dispatch({ type: 'progress', fraction: 1 });
        dispatch({ type: 'done', recording: response.data ?? null });
        notify.success(translateServerMessage(t, response.message ?? messages.recordingUploaded), { id: 'recording-upload' });
        void client.invalidateQueries({ queryKey: recordingKeys.all });
      } catch (error) {
        if (abort.signal.aborted) return;
        const message = translateServerMessage(t, messageOf(error, messages.recordingUploadFailed));
        dispatch({ type: 'failed', message });
        notify.error(message, { id: 'recording-upload' });
      } finally {
        if (controller.current === abort) controller.current = null;
      }
    },
    [roomId, t, client],
  );

  const cancel = useCallback(() => {
    controller.current?.abort();
    controller.current = null;
    dispatch({ type: 'reset' });
  }, []);

  const reset = useCallback(() => dispatch({ type: 'reset' }), []);

  return { state, upload, cancel, reset };
}
