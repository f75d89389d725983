// Joining without waiting (the third joiner's first frame): a socket connected while the lobby
// holds a room to join is the one the click joins with, so the join goes out at the click; nothing
// waits for the camera: an offer is answered at once, and the camera's tracks, once on, are negotiated
// again on the same link. Against a stand-in socket and stand-in peer connections; the browser's side
// is e2e/meeting.spec.ts and bench/first-frame.mjs.
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import i18n from 'i18next';
import type { Room } from '@mooz/contract/realtime';
import { initialMeetingState, useMeetingStore } from '../meeting-store';
import { prefetchIceServers } from './ice-servers';
import { enterRoom, leaveRoom, prepareRoom } from './meeting';
import { dropWarmSignalling, warmSignalling } from './signalling';
import { StandInPeerConnection as BasePeerConnection } from '../../../../test/stand-in-peer-connection';
import { StandInSocket as BaseStandInSocket } from '../../../../test/stand-in-socket';

/** A socket still connecting until the server says 'connect'; one disconnected is done for. */
class StandInSocket extends BaseStandInSocket {
  constructor() {
    super({ connected: false });
  }
  disconnect() {
    super.disconnect();
    this.active = false;
    return this;
  }
  serverSays(event: string, payload?: unknown) {
    if (event === 'connect') this.connected = true;
    super.serverSays(event, payload);
  }
}

/** A link recording the order of what it is asked, whose data channel is still opening. */
class StandInPeerConnection extends BasePeerConnection {
  static all: StandInPeerConnection[] = [];
  readonly calls: string[] = [];
  constructor() {
    super();
    StandInPeerConnection.all.push(this);
  }
  createDataChannel() {
    return { ...super.createDataChannel(), readyState: 'connecting' };
  }
  addTrack(track: { kind: string }) {
    this.calls.push(`addTrack ${track.kind}`);
    return {};
  }
  setRemoteDescription = async (description: { type: string }) => {
    this.calls.push(`remote ${description.type}`);
    this.signalingState = description.type === 'offer' ? 'have-remote-offer' : 'stable';
  };
  async setLocalDescription() {
    const type = this.signalingState === 'have-remote-offer' ? 'answer' : 'offer';
    this.calls.push(`local ${type}`);
    this.signalingState = type === 'answer' ? 'stable' : 'have-local-offer';
    this.localDescription = { type, sdp: `${type} sdp`, toJSON: () => ({ type, sdp: `${type} sdp` }) };
  }
}

const sockets = vi.hoisted(() => ({ all: [] as unknown[], camera: null as null | ((stream: unknown) => void) }));

vi.mock('socket.io-client', () => ({
  io: () => {
    const socket = new StandInSocket();
    sockets.all.push(socket);
    return socket;
  },
}));
vi.mock('../../../lib/api', async () => (await import('../../../../test/meeting-stubs')).standInApi());
// The camera starts when the test says so.
vi.mock('./media', async () => ({
  ...(await import('../../../../test/meeting-stubs')).withoutDevices,
  captureDevices: () => new Promise((resolve) => (sockets.camera = resolve)),
}));

const room: Room = { id: 'room-1', name: 'Standup', capacity: 10, created_by: 1 };
const lastSocket = () => sockets.all.at(-1) as StandInSocket;
const settle = () => new Promise((resolve) => setTimeout(resolve, 0));
const track = (kind: string) => ({ kind, readyState: 'live', enabled: true, addEventListener() {}, stop() {} });

beforeAll(async () => {
  const english = JSON.parse(readFileSync(resolve(import.meta.dirname, '../../../../public/locales/en/translation.json'), 'utf8'));
  await i18n.init({ lng: 'en', resources: { en: { translation: english } }, keySeparator: false, nsSeparator: false });
});

beforeEach(() => {
  StandInPeerConnection.all = [];
  vi.stubGlobal('RTCPeerConnection', StandInPeerConnection);
  vi.stubGlobal(
    'MediaStream',
    class {
      id = 'local';
      private tracks: unknown[] = [];
      addTrack(added: unknown) {
        this.tracks.push(added);
      }
      getTracks() {
        return this.tracks;
      }
      getAudioTracks() {
        return this.tracks.filter((added) => (added as { kind: string }).kind === 'audio');
      }
      getVideoTracks() {
        return this.tracks.filter((added) => (added as { kind: string }).kind === 'video');
      }
    },
  );
});

afterEach(() => {
  leaveRoom();
  dropWarmSignalling();
  useMeetingStore.setState({ ...initialMeetingState(), userName: '', peerId: '' });
  vi.unstubAllGlobals();
});

describe('a socket connected while the lobby holds a room to join', () => {
  it('is the one the click joins with: the join goes out at the click', async () => {
    prefetchIceServers();
    await settle();
    warmSignalling();
    const warm = lastSocket();
    warm.serverSays('connect');
    const opened = sockets.all.length;

    prepareRoom(room.id, 'Tess');
    expect(sockets.all).toHaveLength(opened);
    expect(warm.joins().map((join) => join.payload)).toEqual([{ roomId: room.id, userName: 'Tess' }]);
  });

  it('not yet connected: the join goes out when it is', async () => {
    warmSignalling();
    const warm = lastSocket();
    prepareRoom(room.id, 'Tess');
    await settle();
    expect(warm.joins()).toHaveLength(0);
    warm.serverSays('connect');
    expect(warm.joins()).toHaveLength(1);
  });

  it('is closed when the lobby goes without a join, and a refused one is not kept', () => {
    warmSignalling();
    const unused = lastSocket();
    dropWarmSignalling();
    expect(unused.active).toBe(false);

    warmSignalling();
    const refused = lastSocket();
    refused.active = false;
    refused.serverSays('connect_error', { message: JSON.stringify({ message: 'Unauthorized' }) });
    prepareRoom(room.id, 'Tess');
    expect(lastSocket()).not.toBe(refused);
  });
});

// A room of their own: an earlier test's prepared meeting (left since) is not taken for these.
describe('joining while the camera starts', () => {
  const room: Room = { id: 'room-2', name: 'Review', capacity: 10, created_by: 1 };

  it('joins at once and answers the first offer at once; the camera, once on, is offered on the same link', async () => {
    void enterRoom(room.id, 'Tess');
    const socket = lastSocket();
    socket.serverSays('connect');
    await settle();
    expect(socket.joins()).toHaveLength(1);
    socket.joins()[0]!.ack!({ room });

    // Sam, already in the room, links to us and offers while our camera is still starting.
    socket.serverSays('action:message_received', { from: 'sam-peer', data: { connection: true, userName: 'Sam' } });
    socket.serverSays('action:message_received', { from: 'sam-peer', data: { sdpSignal: { description: { type: 'offer', sdp: 'offer sdp' } } } });
    await settle();
    const pc = StandInPeerConnection.all.at(-1)!;
    expect(pc.calls).toEqual(['remote offer', 'local answer']);
    expect(socket.signalsTo('sam-peer')).toMatchObject([{ sdpSignal: { description: { type: 'answer' } } }]);

    sockets.camera!({ getTracks: () => [track('audio'), track('video')] });
    await settle();
    expect(pc.calls).toEqual(['remote offer', 'local answer', 'addTrack audio', 'addTrack video']);
    // The browser asks for a negotiation once the tracks are added: our offer goes to Sam on the same link.
    pc.onnegotiationneeded?.();
    await settle();
    expect(pc.calls.at(-1)).toBe('local offer');
    expect(StandInPeerConnection.all.at(-1)).toBe(pc);
    expect(socket.signalsTo('sam-peer')).toMatchObject([
      { sdpSignal: { description: { type: 'answer' } } },
      { sdpSignal: { description: { type: 'offer' } }, metaData: { userStreamId: 'local' } },
    ]);
  });

  it('a newcomer who comes meanwhile gets our first offer at once, and the camera once it is on', async () => {
    void enterRoom(room.id, 'Tess');
    const socket = lastSocket();
    socket.serverSays('connect');
    await settle();
    socket.joins()[0]!.ack!({ room });

    socket.serverSays('action:establish_peer_connection', { userId: 'ada-peer', userName: 'Ada' });
    const pc = StandInPeerConnection.all.at(-1)!;
    await settle();
    expect(pc.calls).toEqual(['local offer']);
    expect(socket.signalsTo('ada-peer')).toMatchObject([{ connection: true }, { sdpSignal: { description: { type: 'offer' } } }]);

    socket.serverSays('action:message_received', { from: 'ada-peer', data: { sdpSignal: { description: { type: 'answer', sdp: 'answer sdp' } } } });
    sockets.camera!({ getTracks: () => [track('audio'), track('video')] });
    await settle();
    pc.onnegotiationneeded?.();
    await settle();
    expect(pc.calls).toEqual(['local offer', 'remote answer', 'addTrack audio', 'addTrack video', 'local offer']);
    expect(socket.signalsTo('ada-peer')).toHaveLength(3);
  });
});
