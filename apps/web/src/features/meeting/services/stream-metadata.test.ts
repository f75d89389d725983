// The stream ids each description and candidate carries: the store changes only when they do, since
// every change re-renders the room (and a join brings a dozen candidates while the first video comes).
import { afterEach, describe, expect, it } from 'vitest';
import { initialMeetingState, useMeetingStore, type Peer } from '../meeting-store';
import { noteStreamIds } from './stream-metadata';

const peer: Peer = {
  peerId: 'p1',
  userName: 'Sam',
  status: 'signalling',
  initiator: false,
  userStream: null,
  screenStream: null,
  screenStreamId: null,
  userStreamId: null,
  version: 0,
};

afterEach(() => useMeetingStore.setState({ ...initialMeetingState(), userName: '', peerId: '' }));

describe('noting a peer stream ids', () => {
  it('keeps the store as it is when the ids are the ones already known', () => {
    useMeetingStore.setState({ peers: { p1: { ...peer, userStreamId: 'cam' } } });
    const before = useMeetingStore.getState().peers;
    noteStreamIds('p1', { userStreamId: 'cam', screenStreamId: null });
    noteStreamIds('p1', { userStreamId: 'cam' });
    expect(useMeetingStore.getState().peers).toBe(before);
  });

  it('records new ids, and drops a screen stream the peer no longer names', () => {
    const screen = { id: 'screen-1' } as MediaStream;
    useMeetingStore.setState({ peers: { p1: { ...peer, userStreamId: 'cam', screenStreamId: 'screen-1', screenStream: screen } } });
    noteStreamIds('p1', { userStreamId: 'cam', screenStreamId: 'screen-1' });
    expect(useMeetingStore.getState().peers.p1!.screenStream).toBe(screen);
    noteStreamIds('p1', { userStreamId: 'cam', screenStreamId: null });
    expect(useMeetingStore.getState().peers.p1).toMatchObject({ userStreamId: 'cam', screenStreamId: null, screenStream: null });
  });

  it('ignores a peer it does not know, and a signal without ids', () => {
    noteStreamIds('nobody', { userStreamId: 'cam' });
    noteStreamIds('p1', undefined);
    expect(useMeetingStore.getState().peers).toEqual({});
  });
});
