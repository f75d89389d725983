import { describe, expect, it } from 'vitest';
import type { Peer } from '../meeting-store';
import { changedLayers, layersFor, type StageView } from './sfu-layers';

const stream = {} as MediaStream;
const peer = (peerId: string, withScreen = false): Peer => ({
  peerId,
  userName: peerId,
  status: 'connected',
  initiator: false,
  userStream: stream,
  screenStream: withScreen ? stream : null,
  screenStreamId: null,
  userStreamId: null,
  version: 0,
});
/** Everyone on the stage, nobody speaking or pinned, unless said. */
const view = (peers: Peer[], change: Partial<StageView> = {}): StageView => ({
  ownScreen: false,
  onStage: peers.map((p) => p.peerId),
  speaker: null,
  pinned: null,
  ...change,
});

describe('the layers an SFU room page asks for', () => {
  it('takes the full layer of each camera while the grid has at most four large tiles', () => {
    const peers = [peer('a'), peer('b'), peer('c')];
    expect(layersFor(peers, view(peers)).map((c) => c.layer)).toEqual(['high', 'high', 'high']);
  });

  it('takes thumbnails once the grid has more cameras, and beside a screen share, which it takes in full', () => {
    const four = ['a', 'b', 'c', 'd'].map((id) => peer(id));
    expect(new Set(layersFor(four, view(four)).map((c) => c.layer))).toEqual(new Set(['low']));
    const sharing = [peer('a', true), peer('b')];
    expect(layersFor(sharing, view(sharing))).toEqual([
      { peerId: 'a', source: 'camera', layer: 'low' },
      { peerId: 'a', source: 'screen', layer: 'high' },
      { peerId: 'b', source: 'camera', layer: 'low' },
    ]);
    expect(layersFor([peer('a')], view([peer('a')], { ownScreen: true }))).toEqual([{ peerId: 'a', source: 'camera', layer: 'low' }]);
  });

  it('takes the active speaker and a pinned tile in full among thumbnails', () => {
    const six = ['a', 'b', 'c', 'd', 'e', 'f'].map((id) => peer(id));
    const layers = layersFor(six, view(six, { speaker: 'b', pinned: 'e' }));
    expect(Object.fromEntries(layers.map((c) => [c.peerId, c.layer]))).toEqual({ a: 'low', b: 'high', c: 'low', d: 'low', e: 'high', f: 'low' });
  });

  it('pauses the cameras off the stage, and asks for them again when they come on it', () => {
    const six = ['a', 'b', 'c', 'd', 'e', 'f'].map((id) => peer(id));
    const asked = new Map();
    const first = changedLayers(layersFor(six, view(six, { onStage: ['a', 'b', 'c', 'd'] })), asked);
    expect(first.filter((c) => c.layer === 'off').map((c) => c.peerId)).toEqual(['e', 'f']);
    expect(changedLayers(layersFor(six, view(six, { onStage: ['a', 'b', 'c', 'f'], speaker: 'f' })), asked)).toEqual([
      { peerId: 'd', source: 'camera', layer: 'off' },
      { peerId: 'f', source: 'camera', layer: 'high' },
    ]);
  });

  it('sends only what changed since the last ask', () => {
    const asked = new Map();
    const one = [peer('a')];
    expect(changedLayers(layersFor(one, view(one)), asked)).toHaveLength(1);
    expect(changedLayers(layersFor(one, view(one)), asked)).toEqual([]);
    expect(changedLayers(layersFor(one, view(one, { ownScreen: true })), asked)).toEqual([{ peerId: 'a', source: 'camera', layer: 'low' }]);
  });
});
