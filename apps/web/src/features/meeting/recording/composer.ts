// The recording's picture: a 1280×720 canvas painted at a steady frame rate from the meeting's tiles,
// as a student sees the class — a shared screen large with the cameras beside it, otherwise a grid of
// cameras, each with the person's name; a camera that is off shows the name on a plain background.
// The tiles are read from the meeting store on every frame, so people joining or leaving and screen
// shares starting or stopping change the picture while the MediaRecorder fed by it runs on.
//
// Timing: requestAnimationFrame, throttled to `fps`, while the tab is visible; while it is hidden rAF
// stops, and the page's own timers are throttled by the browser, so a dedicated worker's timer
// (./tick-worker.ts) paints instead. Where a worker cannot be made, setInterval does (throttled in a
// background tab, so the picture then stutters, but the recording goes on).
import i18n from 'i18next';
import type { MeetingState } from '../meeting-store';
import { initials } from '../initials';
import { whiteboardPicture } from '../whiteboard/whiteboard-link';
import { captionRect, containRect, coverCrop, layoutTiles, recordingSize, type Rect, type TileSpec } from './layout';

interface ComposerTile extends TileSpec {
  label: string;
  stream: MediaStream | null;
  /** A tile drawn from a canvas of the page rather than a stream: the whiteboard, shown as a screen. */
  picture?: () => HTMLCanvasElement | null;
}

export const recordingFps = 25;

const colors = { background: '#0f1117', tile: '#1c1f2a', avatar: '#4c6ef5', caption: 'rgba(0, 0, 0, 0.6)', text: '#ffffff' };

const liveVideo = (stream: MediaStream | null) =>
  stream?.getVideoTracks().find((track) => track.readyState === 'live' && !track.muted) ?? null;

/** The tiles of the meeting as the others see them: screens first, then the cameras; no "(you)". */
export function meetingTiles(state: Pick<MeetingState, 'peers' | 'localStream' | 'screenStream' | 'userName'>): ComposerTile[] {
  const t = (key: string, options?: Record<string, unknown>) => i18n.t(key, options ?? {});
  const remote = Object.values(state.peers).filter((peer) => peer.status === 'signalling' || peer.status === 'connected');
  const name = state.userName || t('meeting.anonymous');
  const board = whiteboardPicture();
  const screens: ComposerTile[] = [
    ...(board ? [{ key: 'whiteboard', kind: 'screen' as const, label: t('meeting.whiteboard.screenLabel'), stream: null, picture: whiteboardPicture }] : []),
    ...(state.screenStream ? [{ key: 'local-screen', kind: 'screen' as const, label: t('meeting.screenOf', { name }), stream: state.screenStream }] : []),
    ...remote
      .filter((peer) => peer.screenStream)
      .map((peer) => ({ key: `screen-${peer.peerId}`, kind: 'screen' as const, label: t('meeting.screenOf', { name: peer.userName }), stream: peer.screenStream })),
  ];
  const cameras: ComposerTile[] = [
    { key: 'local', kind: 'camera', label: name, stream: state.localStream },
    ...remote.map((peer) => ({ key: `camera-${peer.peerId}`, kind: 'camera' as const, label: peer.userName, stream: peer.userStream })),
  ];
  return [...screens, ...cameras];
}

/** `text` cut with an ellipsis to fit `maxWidth` in the context's current font. */
function fitText(context: CanvasRenderingContext2D, text: string, maxWidth: number): string {
  if (context.measureText(text).width <= maxWidth) return text;
  const chars = [...text];
  while (chars.length > 1 && context.measureText(`${chars.join('')}…`).width > maxWidth) chars.pop();
  return `${chars.join('')}…`;
}

/** One video element per tile, playing the tile's video track; remade when the track changes. */
interface Source {
  trackId: string;
  video: HTMLVideoElement;
}

export interface Composer {
  /** The canvas's video: `fps` frames a second while recording. */
  readonly stream: MediaStream;
  /**
   * Resolves once every camera and screen with a live track has its first frame, or after `timeoutMs`,
   * having painted the first picture; the canvas is painted from then on.
   */
  ready(timeoutMs: number): Promise<void>;
  stop(): void;
}

export function createComposer(readTiles: () => ComposerTile[], fps = recordingFps): Composer {
  const canvas = document.createElement('canvas');
  canvas.width = recordingSize.width;
  canvas.height = recordingSize.height;
  const context = canvas.getContext('2d')!;
  const sources = new Map<string, Source>();
  const frameMs = 1000 / fps;
  let last = -Infinity;
  let stopped = false;
  // Nothing is painted before ready() has waited for the cameras: the canvas's first picture is the
  // first frame of its video, and so of the recording (the picture a player shows before Play).
  let painting = false;

  function release(key: string) {
    const source = sources.get(key);
    if (!source) return;
    source.video.pause();
    source.video.srcObject = null;
    sources.delete(key);
  }

  /** The tile's video element when it has a picture to draw, else null (camera off, not started yet). */
  function videoOf(tile: ComposerTile): HTMLVideoElement | null {
    const track = liveVideo(tile.stream);
    if (!track) {
      release(tile.key);
      return null;
    }
    let source = sources.get(tile.key);
    if (source?.trackId !== track.id) {
      release(tile.key);
      const video = document.createElement('video');
      video.muted = true;
      video.playsInline = true;
      video.srcObject = new MediaStream([track]);
      void video.play().catch(() => undefined);
      source = { trackId: track.id, video };
      sources.set(tile.key, source);
    }
    const { video } = source;
    return video.readyState >= HTMLMediaElement.HAVE_CURRENT_DATA && video.videoWidth > 0 ? video : null;
  }

  function drawCaption(label: string, rect: Rect) {
    const fontSize = Math.max(12, Math.min(20, Math.round(rect.height / 12)));
    context.font = `600 ${fontSize}px system-ui, -apple-system, "Segoe UI", Roboto, sans-serif`;
    const padding = Math.round(fontSize / 2);
    const text = fitText(context, label, rect.width - 4 * padding);
    const size = { width: context.measureText(text).width + 2 * padding, height: fontSize + padding };
    const { x, y, width, height } = captionRect(rect, size, padding);
    context.fillStyle = colors.caption;
    context.beginPath();
    context.roundRect(x, y, width, height, height / 4);
    context.fill();
    context.fillStyle = colors.text;
    context.textBaseline = 'middle';
    context.textAlign = 'left';
    context.fillText(text, x + padding, y + height / 2);
  }

  function drawPlaceholder(tile: ComposerTile, rect: Rect) {
    const radius = Math.min(rect.width, rect.height) / 5;
    const cx = rect.x + rect.width / 2;
    const cy = rect.y + rect.height / 2;
    if (tile.kind === 'camera') {
      context.fillStyle = colors.avatar;
      context.beginPath();
      context.arc(cx, cy, radius, 0, 2 * Math.PI);
      context.fill();
      context.fillStyle = colors.text;
      context.font = `700 ${Math.round(radius * 0.8)}px system-ui, sans-serif`;
      context.textAlign = 'center';
      context.textBaseline = 'middle';
      context.fillText(initials(tile.label), cx, cy);
    }
  }

  function draw() {
    context.fillStyle = colors.background;
    context.fillRect(0, 0, canvas.width, canvas.height);
    const tiles = readTiles();
    const placed = new Map(layoutTiles(tiles).map((tile) => [tile.key, tile.rect]));
    for (const tile of tiles) {
      const rect = placed.get(tile.key)!;
      context.fillStyle = colors.tile;
      context.fillRect(rect.x, rect.y, rect.width, rect.height);
      const picture = tile.picture?.();
      const video = picture ? null : videoOf(tile);
      if (picture && picture.width > 0 && picture.height > 0) {
        const inside = containRect({ width: picture.width, height: picture.height }, rect);
        context.drawImage(picture, inside.x, inside.y, inside.width, inside.height);
      } else if (video) {
        const size = { width: video.videoWidth, height: video.videoHeight };
        if (tile.kind === 'screen') {
          const inside = containRect(size, rect);
          context.drawImage(video, inside.x, inside.y, inside.width, inside.height);
        } else {
          const crop = coverCrop(size, rect);
          context.drawImage(video, crop.x, crop.y, crop.width, crop.height, rect.x, rect.y, rect.width, rect.height);
        }
      } else drawPlaceholder(tile, rect);
      drawCaption(tile.label, rect);
    }
    // Tiles that left the meeting let go of their video.
    for (const key of [...sources.keys()]) if (!placed.has(key)) release(key);
  }

  function paint(now: number) {
    // A little slack, so a 60 Hz display's frames (16.7 ms apart) land on 25 fps and not on 20.
    if (stopped || !painting || now - last < frameMs - 4) return;
    last = now;
    draw();
  }

  const hidden = () => document.visibilityState === 'hidden';
  let raf = 0;
  const onFrame = (now: number) => {
    if (stopped) return;
    if (!hidden()) paint(now);
    raf = requestAnimationFrame(onFrame);
  };
  raf = requestAnimationFrame(onFrame);

  let worker: Worker | null = null;
  let interval: ReturnType<typeof setInterval> | undefined;
  try {
    worker = new Worker(new URL('./tick-worker.ts', import.meta.url), { type: 'module' });
    worker.onmessage = () => hidden() && paint(performance.now());
    worker.postMessage(frameMs);
  } catch {
    interval = setInterval(() => hidden() && paint(performance.now()), frameMs);
  }

  const stream = canvas.captureStream(fps);

  return {
    stream,
    ready(timeoutMs) {
      const until = performance.now() + timeoutMs;
      return new Promise<void>((resolve) => {
        const check = () => {
          const waiting = readTiles().some((tile) => liveVideo(tile.stream) !== null && videoOf(tile) === null);
          if (!stopped && waiting && performance.now() < until) return void setTimeout(check, 50);
          // The first picture, painted now rather than at the next animation frame, which a busy machine
          // can hold back for a good part of a second: a recorder started now gets it as its first frame.
          // (A picture painted before, with placeholders for cameras not yet playing, would have been the
          // recording's first frame: it would open on placeholders instead of the cameras.)
          if (!stopped && !painting) {
            painting = true;
            last = performance.now();
            draw();
          }
          resolve();
        };
        check();
      });
    },
    stop() {
      stopped = true;
      cancelAnimationFrame(raf);
      worker?.postMessage(0);
      worker?.terminate();
      clearInterval(interval);
      for (const key of [...sources.keys()]) release(key);
      stream.getTracks().forEach((track) => track.stop());
    },
  };
}
