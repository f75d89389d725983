// The live recording protocol over the API (contract recordings.ts): the uploader's transport.
import { apiRoutes } from '@mooz/contract/api-routes';
import { pathOf } from '@mooz/contract/endpoint';
import { liveChunkContentType, uploadOffsetHeader, type LiveRecording } from '@mooz/contract/recordings';
import { api, call } from '../../../lib/api';
import type { LiveTransport } from './chunk-uploader';

export function liveTransport(roomId: string): LiveTransport {
  return {
    start: async () => (await call(apiRoutes.recordings.startLive, { body: { room_id: roomId } })).data,
    status: async (id) => (await call(apiRoutes.recordings.liveStatus, { params: { id } })).data,
    append: async (id, offset, bytes) => {
      const path = pathOf(apiRoutes.recordings.appendLive, { id });
      const answer = await api<LiveRecording>(path, {
        method: 'PATCH',
        bytes,
        contentType: liveChunkContentType,
        headers: { [uploadOffsetHeader]: String(offset) },
      });
      return answer.data;
    },
    // Every chunk was sent: the server lets the ones it kept go.
    finish: async (id) => (await call(apiRoutes.recordings.finishLive, { params: { id }, query: { complete: true } })).data,
    // No body: keepalive requests may carry at most 64 KB, and the finish needs none. Not `complete`:
    // what this page had not sent yet follows from the next one (./pending-upload.ts).
    finishOnUnload: (id) => void call(apiRoutes.recordings.finishLive, { params: { id }, keepalive: true }).catch(() => undefined),
  };
}
