// Where the player's video comes from and where it starts: the signed link, swapped for a fresh one
// before it expires or when it fails (carrying on from the same moment), and the point the viewer
// stopped at last time.
import { useEffect, useRef, useState } from 'react';
import type { Recording } from '@mooz/contract/recordings';

/** Links are asked for again this long before they expire (they live hours; a refresh is cheap). */
const refreshBeforeExpiryMs = 5 * 60_000;
/** A resume point this close to either end is not worth resuming: start from the beginning. */
const resumeMarginSeconds = 5;

/** Where to resume, or null to start at the beginning. */
function resumePoint(position: number, duration: number): number | null {
  if (!(position >= resumeMarginSeconds)) return null;
  if (Number.isFinite(duration) && duration > 0 && position > duration - resumeMarginSeconds) return null;
  return position;
}

/**
 * The video's source and its handlers. `refresh` asks for fresh links; `rate` is the speed a source
 * plays at once it has loaded.
 */
export function usePlayerSource(recording: Recording, refresh: () => void, video: HTMLVideoElement | null, rate: number) {
  const [src, setSrc] = useState(recording.url);
  const [resumedFrom, setResumedFrom] = useState<number | null>(null);
  const [failed, setFailed] = useState(false);
  /** Where to carry on after the source changes (a refreshed link): time, speed, and whether it played. */
  const restore = useRef<{ time: number; playing: boolean } | null>(null);
  const resumeDecided = useRef(false);
  const refreshedForError = useRef(false);

  // Fresh links arrived: swap the source and carry on from the same moment.
  useEffect(() => {
    if (recording.url === src) return;
    if (video) restore.current = { time: video.currentTime, playing: !video.paused && !video.ended };
    setFailed(false);
    setSrc(recording.url);
  }, [recording.url, src, video]);

  // Ask for fresh links before these expire (a long lecture, a paused tab left open).
  useEffect(() => {
    const expires = new Date(recording.url_expires_at).getTime();
    if (Number.isNaN(expires)) return;
    const wait = Math.min(Math.max(expires - Date.now() - refreshBeforeExpiryMs, 10_000), 2_147_483_647);
    const timer = setTimeout(refresh, wait);
    return () => clearTimeout(timer);
  }, [recording.url_expires_at, refresh]);

  const onLoadedMetadata = (event: React.SyntheticEvent<HTMLVideoElement>) => {
    const video = event.currentTarget;
    video.playbackRate = rate;
    const carryOn = restore.current;
    if (carryOn) {
      restore.current = null;
      video.currentTime = carryOn.time;
      if (carryOn.playing) void video.play().catch(() => undefined);
      return;
    }
    if (resumeDecided.current) return;
    resumeDecided.current = true;
    const duration = Number.isFinite(video.duration) ? video.duration : recording.duration_seconds;
    const at = resumePoint(recording.position_seconds, duration);
    if (at !== null) {
      video.currentTime = at;
      setResumedFrom(at);
    }
  };

  const onError = (event: React.SyntheticEvent<HTMLVideoElement>) => {
    const code = event.currentTarget.error?.code;
    // A network failure, or a source refused (an expired link answers 403, which the element reports as
    // unsupported), may be the link's age (a laptop that slept): ask for a fresh one once before giving
    // up. A file that does not decode will not decode from a new link either.
    const linkMayHaveExpired = code === MediaError.MEDIA_ERR_NETWORK || code === MediaError.MEDIA_ERR_SRC_NOT_SUPPORTED;
    if (linkMayHaveExpired && !refreshedForError.current) {
      refreshedForError.current = true;
      // Carry on from here; before the resume point was applied, the fresh source still gets it.
      if (resumeDecided.current) restore.current = { time: event.currentTarget.currentTime, playing: false };
      refresh();
      return;
    }
    setFailed(true);
  };

  // It plays again: a later failure may be a link that expired since, worth one more refresh.
  const onPlaying = () => (refreshedForError.current = false);

  const retry = () => {
    refreshedForError.current = false;
    setFailed(false);
    refresh();
  };

  const startOver = () => {
    if (video) video.currentTime = 0;
    setResumedFrom(null);
    video?.focus();
  };

  return { src, failed, resumedFrom, onLoadedMetadata, onError, onPlaying, retry, startOver };
}
