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
    finish: async (id) => (await call(apiRoutes.recordings.finishLive, { params: { id } })).data,
    // No body: keepalive requests may carry at most 64 KB, and the finish needs none.
    finishOnUnload: (id) => void call(apiRoutes.recordings.finishLive, { params: { id }, keepalive: true }).catch(() => undefined),
  };
}
