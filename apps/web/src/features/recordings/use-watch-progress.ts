// The player's watch reports (POST /api/classes/recordings/{id}/progress/): where the viewer is, for
// resuming, and the spans played since the last report, which the server counts as learning time.
// Sent every `recordingLimits.progressIntervalMs` while playing, and when playback pauses or ends,
// the tab is hidden or left (keepalive, so a reload or a closed tab still delivers it), or the page is.
import { useEffect } from 'react';
import { apiRoutes } from '@mooz/contract/api-routes';
import { recordingLimits } from '@mooz/contract/recordings';
import { call } from '../../lib/api';
import { WatchSpans } from './watch-spans';

/** The contract's largest position (a week): a longer video is not a class recording. */
const maxPosition = 7 * 24 * 3600;

export function useWatchProgress(video: HTMLVideoElement | null, recordingId: number): void {
  useEffect(() => {
    if (!video) return;
    const spans = new WatchSpans();
    // Nothing is reported before the viewer plays: opening the page and leaving must not move the
    // resume point to where the page happened to be (0, or the resumed position before it loaded).
    let started = false;
    let lastPosition = -1;
    let timer: ReturnType<typeof setInterval> | null = null;

    const report = (keepalive: boolean) => {
      if (!started) return;
      const position = Math.min(maxPosition, Math.max(0, Number.isFinite(video.currentTime) ? video.currentTime : 0));
      const played = spans.take();
      if (played.length === 0 && Math.abs(position - lastPosition) < 0.5) return;
      lastPosition = position;
      call(apiRoutes.recordings.progress, {
        params: { id: recordingId },
        body: { position_seconds: Math.round(position * 1000) / 1000, spans: played },
        keepalive,
      }).catch(() => {
        // Sent again with the next report; the server's union makes a repeat harmless.
        spans.giveBack(played);
        lastPosition = -1;
      });
    };
    const stopTimer = () => {
      if (timer !== null) clearInterval(timer);
      timer = null;
    };

    const played = () => spans.played(video.currentTime, performance.now(), video.playbackRate);
    const onTime = () => {
      if (!video.seeking) played();
    };
    const onSeeking = () => spans.seeked();
    const onPlaying = () => {
      started = true;
      played();
      if (timer === null) timer = setInterval(() => report(false), recordingLimits.progressIntervalMs);
    };
    const onStop = () => {
      played();
      stopTimer();
      report(false);
    };
    const onHidden = () => {
      if (document.visibilityState === 'hidden') report(true);
    };
    const onPageHide = () => report(true);

    video.addEventListener('timeupdate', onTime);
    video.addEventListener('seeking', onSeeking);
    // A new source (a refreshed link) starts from nothing: what came before is its own span.
    video.addEventListener('emptied', onSeeking);
    video.addEventListener('playing', onPlaying);
    video.addEventListener('pause', onStop);
    video.addEventListener('ended', onStop);
    document.addEventListener('visibilitychange', onHidden);
    window.addEventListener('pagehide', onPageHide);
    return () => {
      video.removeEventListener('timeupdate', onTime);
      video.removeEventListener('seeking', onSeeking);
      video.removeEventListener('emptied', onSeeking);
      video.removeEventListener('playing', onPlaying);
      video.removeEventListener('pause', onStop);
      video.removeEventListener('ended', onStop);
      document.removeEventListener('visibilitychange', onHidden);
      window.removeEventListener('pagehide', onPageHide);
      stopTimer();
      // Leaving the player inside the app: what was played since the last report.
      report(true);
    };
  }, [video, recordingId]);
}
