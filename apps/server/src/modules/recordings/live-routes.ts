// HTTP shape of the live recording protocol (/api/classes/recordings/live/), and its place in the app:
// `app.liveRecordings` (the realtime server tells it who left and asks it what to show a joiner) and
// the sweeper, which runs from the moment the app is ready until it closes.
import type { FastifyInstance, FastifyPluginAsync } from 'fastify';
import { endpoints } from '@mooz/contract/endpoints';
import { liveChunkContentType, recordingLimits, uploadOffsetHeader } from '@mooz/contract/recordings';
import { currentUser } from '../../http/authenticate';
import { route } from '../../http/route';
import type { LiveRecordings, LiveRecordingsOptions } from './live';
import { startSweeper } from './sweeper';

declare module 'fastify' {
  interface FastifyInstance {
    liveRecordings: LiveRecordings;
  }
}

/** How often each server process looks for silent recordings: every 5 s, or four times per stall timeout when that is shorter. */
const sweepEveryMs = (staleAfterMs: number) => Math.max(100, Math.min(5000, staleAfterMs / 4));

const liveRecordingRoutes: FastifyPluginAsync<{ live: LiveRecordings }> = async (app, { live }) => {
  // Chunks are raw bytes, handed to the handler as the request's stream: the handler checks who is
  // sending what where before it reads a byte, then streams them to storage (never held in memory).
  // In this plugin's scope only.
  app.addContentTypeParser(liveChunkContentType, (_request, payload, done) => done(null, payload));

  route(app, endpoints.recordings.startLive, (req) => live.start(currentUser(req), req.body).then((data) => ({ data })));
  route(app, endpoints.recordings.liveStatus, (req) => live.status(currentUser(req), req.params.id).then((data) => ({ data })));
  route(app, endpoints.recordings.appendLive, (req) =>
    live
      .append(currentUser(req), req.params.id, {
        contentType: req.headers['content-type'],
        uploadOffset: req.headers[uploadOffsetHeader],
        contentLength: req.headers['content-length'],
        body: req.body,
      })
      .then((data) => ({ data })),
  );
  route(app, endpoints.recordings.finishLive, (req) => live.finish(currentUser(req), req.params.id, req.query.complete === true).then((data) => ({ data })));
};

/** The live recordings' timings: the protocol's, unless the configuration (tests) says otherwise. */
export function liveRecordingsOptions(overrides: Partial<LiveRecordingsOptions> = {}): LiveRecordingsOptions {
  return {
    staleAfterMs: recordingLimits.staleAfterSeconds * 1000,
    resumableMs: recordingLimits.resumableSeconds * 1000,
    finishWaitMs: 20_000,
    processingTimeoutMs: 15 * 60_000,
    leaveSettleMs: 2.5 * recordingLimits.chunkIntervalMs,
    now: () => new Date(),
    ...overrides,
  };
}

/** Puts the live recordings (built in app.ts) in the app: app.liveRecordings, the sweeper and the routes. */
export async function registerLiveRecordings(app: FastifyInstance, live: LiveRecordings) {
  app.decorate('liveRecordings', live);
  let sweeper: ReturnType<typeof startSweeper> | null = null;
  app.addHook('onReady', async () => {
    sweeper = startSweeper(live, app.log, sweepEveryMs(live.options.staleAfterMs));
  });
  // Before the storage and the database close (onClose hooks run in reverse order).
  app.addHook('onClose', async () => {
    await sweeper?.stop();
    await live.close();
  });
  await app.register(liveRecordingRoutes, { live });
}
