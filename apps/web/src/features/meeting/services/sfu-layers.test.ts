import { describe, expect, it } from 'vitest';
import type { Peer } from '../meeting-store';
import { changedLayers, layersFor } from './sfu-layers';

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

describe('the layers an SFU room page asks for', () => {
  it('takes the full layer of each camera while the grid has at most four large tiles', () => {
    expect(layersFor([peer('a'), peer('b'), peer('c')], false).map((c) => c.layer)).toEqual(['high', 'high', 'high']);
  });

  it('takes thumbnails once the grid has more cameras, and beside a screen share, which it takes in full', () => {
    expect(new Set(layersFor(['a', 'b', 'c', 'd'].map((id) => peer(id)), false).map((c) => c.layer))).toEqual(new Set(['low']));
    expect(layersFor([peer('a', true), peer('b')], false)).toEqual([
      { peerId: 'a', source: 'camera', layer: 'low' },
      { peerId: 'a', source: 'screen', layer: 'high' },
      { peerId: 'b', source: 'camera', layer: 'low' },
    ]);
    expect(layersFor([peer('a')], true)).toEqual([{ peerId: 'a', source: 'camera', layer: 'low' }]);
  });

  it('sends only what changed since the last ask', () => {
    const asked = new Map();
    expect(changedLayers(layersFor([peer('a')], false), asked)).toHaveLength(1);
    expect(changedLayers(layersFor([peer('a')], false), asked)).toEqual([]);
    expect(changedLayers(layersFor([peer('a')], true), asked)).toEqual([{ peerId: 'a', source: 'camera', layer: 'low' }]);
  });
});
