// Which simulcast layer of each camera an SFU room's page asks for: what its tile needs. The stage
// (components/video-grid.tsx) shows the cameras on it (stage.ts) in a grid; up to four they are large
// (high), beyond that, or beside a screen share or a pinned tile, they are thumbnails (low). The
// pinned tile and the active speaker come in full; a camera off the stage is paused (off), its sound
// still heard. A screen share is always shown large.
import type { VideoLayer } from '@mooz/contract/realtime';
import type { Peer } from '../meeting-store';

/** Cameras on the stage (ours included) up to which each tile is large enough for the full layer. */
const LARGE_TILES_UP_TO = 4;

interface LayerChoice {
  peerId: string;
  source: 'camera' | 'screen';
  layer: VideoLayer;
}

export interface StageView {
  ownScreen: boolean;
  /** The others whose camera is on the stage. */
  onStage: readonly string[];
  speaker: string | null;
  pinned: string | null;
}

export function layersFor(peers: readonly Peer[], view: StageView): LayerChoice[] {
  const onStage = new Set(view.onStage);
  const spotlight = view.ownScreen || !!view.pinned || peers.some((peer) => peer.screenStream);
  const tileLayer: VideoLayer = !spotlight && onStage.size + 1 <= LARGE_TILES_UP_TO ? 'high' : 'low';
  const choices: LayerChoice[] = [];
  for (const peer of peers) {
    if (peer.userStream) {
      const layer: VideoLayer = !onStage.has(peer.peerId)
        ? 'off'
        : peer.peerId === view.pinned || peer.peerId === view.speaker
          ? 'high'
          : tileLayer;
      choices.push({ peerId: peer.peerId, source: 'camera', layer });
    }
    if (peer.screenStream) choices.push({ peerId: peer.peerId, source: 'screen', layer: 'high' });
  }
  return choices;
}

/** The choices that differ from what was last asked (keyed by peer and source), to send only those. */
export function changedLayers(choices: readonly LayerChoice[], asked: Map<string, VideoLayer>): LayerChoice[] {
  const changed = choices.filter((choice) => asked.get(`${choice.peerId}\n${choice.source}`) !== choice.layer);
  for (const choice of changed) asked.set(`${choice.peerId}\n${choice.source}`, choice.layer);
  return changed;
}
