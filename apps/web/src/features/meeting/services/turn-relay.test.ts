// TURN in a meeting, against a stand-in socket, stand-in peer connections and a stand-in of
// GET /api/ice-servers/: every link is made with the server's servers and policy, renewed credentials
// go into every live link, and a link with no way through is explained: to the one whose own network
// let nothing out (they leave, told why and what to try), or as a peer without media (the others stay).
// The browser's side is e2e/turn-relay.spec.ts.
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import i18n from 'i18next';
import { messages } from '@mooz/contract/messages';
import type { IceServersAnswer, Room } from '@mooz/contract/realtime';
import { stubMediaStream } from '../../../../test/meeting-stubs';
import { StandInPeerConnection as BasePeerConnection } from '../../../../test/stand-in-peer-connection';
import type { StandInSocket } from '../../../../test/stand-in-socket';

/** A link with the configuration it was given, whose gathering the test plays. */
class StandInPeerConnection extends BasePeerConnection {
  static all: StandInPeerConnection[] = [];
  configuration: RTCConfiguration;
  setConfiguration = vi.fn((configuration: RTCConfiguration) => {
    this.configuration = configuration;
  });
  constructor(configuration: RTCConfiguration) {
    super();
    // What a browser adds of its own, which a renewal must keep.
    this.configuration = { bundlePolicy: 'max-bundle', rtcpMuxPolicy: 'require', ...configuration };
    StandInPeerConnection.all.push(this);
  }
  getConfiguration() {
    return this.configuration;
  }
  /** A whole gathering: a candidate of each type, then its end. */
  gathers(...types: string[]) {
    for (const type of types) this.onicecandidate?.({ candidate: { type, toJSON: () => ({ candidate: `candidate ${type}` }) } });
    this.onicecandidate?.({ candidate: null });
  }
}

const stubs = vi.hoisted(() => ({ socket: null as unknown, answer: vi.fn<() => Promise<IceServersAnswer>>() }));
vi.mock('socket.io-client', async () => {
  const { StandInSocket } = await import('../../../../test/stand-in-socket');
  return {
    io: (options: ConstructorParameters<typeof StandInSocket>[0]) => {
      stubs.socket = new StandInSocket(options);
      return stubs.socket;
    },
  };
});
vi.mock('../../../lib/api', async () =>
  (await import('../../../../test/meeting-stubs')).standInApi(() => stubs.answer()),
);
// Hours of fake time pass here: who speaks is not this test's, and its look every 400 ms would be thousands.
vi.mock('./active-speaker', () => ({ watchSpeakers: () => () => undefined }));
vi.mock('./media', async () => (await import('../../../../test/meeting-stubs')).withoutDevices);

const HOUR = 3_600_000;
const room: Room = { id: 'room-1', name: 'Physics', capacity: 10, created_by: 1 };
const stun = { urls: 'stun:stun.example.test:3478' };
/** GET /api/ice-servers/ at the current time: STUN, and TURN with a credential living `ttlMs`. */
function iceAnswer(policy?: 'relay', ttlMs = 6 * HOUR): IceServersAnswer {
  const username = `${Math.floor((Date.now() + ttlMs) / 1000)}:7`;
  const turn = { urls: ['turn:turn.example.test:3478?transport=udp'], username, credential: `credential-${username}` };
  return policy ? { data: [stun, turn], ice_transport_policy: policy } : { data: [stun, turn] };
}

// Fresh modules per test: the ICE servers a test was given are not kept into the next one.
let meeting: typeof import('./meeting');
let store: typeof import('../meeting-store').useMeetingStore;
let toasts: typeof import('./meeting-toasts').meetingToast;

/** In the room; the server introduces each of `peers`, to whom this side offers. */
async function inACall(...peers: string[]) {
  await meeting.enterRoom(room.id, 'Tess');
  const socket = stubs.socket as StandInSocket;
  socket.serverSays('connect');
  socket.joins()[0]!.ack!({ room });
  for (const peer of peers) socket.serverSays('action:establish_peer_connection', { userId: `${peer}-peer`, userName: peer });
  return { socket, pcs: StandInPeerConnection.all.slice(-peers.length) };
}

/** ICE fails, and its restarts (each given the ICE completion timeout) find no way either. */
async function failsForGood(pc: StandInPeerConnection) {
  pc.iceState('failed');
  await vi.advanceTimersByTimeAsync(20_000);
}

beforeAll(async () => {
  const english = JSON.parse(readFileSync(resolve(import.meta.dirname, '../../../../public/locales/en/translation.json'), 'utf8'));
  await i18n.init({ lng: 'en', resources: { en: { translation: english } }, keySeparator: false, nsSeparator: false });
});

beforeEach(async () => {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'Date'] });
  StandInPeerConnection.all = [];
  stubs.answer.mockReset();
  stubMediaStream();
  vi.stubGlobal('RTCPeerConnection', StandInPeerConnection);
  vi.resetModules();
  meeting = await import('./meeting');
  store = (await import('../meeting-store')).useMeetingStore;
  toasts = (await import('./meeting-toasts')).meetingToast;
  for (const kind of ['short', 'medium', 'error'] as const) vi.spyOn(toasts, kind).mockImplementation(() => undefined);
});

afterEach(() => {
  meeting.leaveRoom();
  vi.useRealTimers();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe('the servers and the policy of every link', () => {
  it('makes each link with the STUN and TURN servers the server gave, relay-only when it says so', async () => {
    const given = iceAnswer('relay');
    stubs.answer.mockResolvedValue(given);
    const { pcs } = await inACall('Sam', 'Kim');
    expect(pcs).toHaveLength(2);
    for (const pc of pcs) expect(pc.configuration).toMatchObject({ iceServers: given.data, iceTransportPolicy: 'relay' });
  });

  it('uses every candidate when the server sets no policy', async () => {
    stubs.answer.mockResolvedValue(iceAnswer());
    const { pcs } = await inACall('Sam');
    expect(pcs[0]!.configuration.iceTransportPolicy).toBe('all');
  });

  it('puts renewed TURN credentials into every live link before they expire, keeping the rest of its configuration, for ICE restarts to use', async () => {
    stubs.answer.mockImplementation(async () => iceAnswer('relay'));
    const { pcs } = await inACall('Sam', 'Kim');
    for (const pc of pcs) pc.iceState('connected');
    const first = pcs[0]!.configuration.iceServers![1]!.username;

    await vi.advanceTimersByTimeAsync(0.8 * 6 * HOUR);
    for (const pc of pcs) {
      expect(pc.setConfiguration).toHaveBeenCalledTimes(1);
      expect(pc.configuration).toMatchObject({ bundlePolicy: 'max-bundle', rtcpMuxPolicy: 'require', iceTransportPolicy: 'relay' });
      expect(pc.configuration.iceServers![1]!.username).not.toBe(first);
    }
    // A link made after the renewal starts with the new credential too.
    (stubs.socket as StandInSocket).serverSays('action:establish_peer_connection', { userId: 'lee-peer', userName: 'Lee' });
    expect(StandInPeerConnection.all.at(-1)!.configuration.iceServers).toEqual(pcs[0]!.configuration.iceServers);
    // Three hours on, and three more: renewed each time while the class runs.
    await vi.advanceTimersByTimeAsync(0.8 * 6 * HOUR);
    expect(pcs[0]!.setConfiguration).toHaveBeenCalledTimes(2);

    // Once the meeting is left, nothing more is asked.
    meeting.leaveRoom();
    const asked = stubs.answer.mock.calls.length;
    await vi.advanceTimersByTimeAsync(24 * HOUR);
    expect(stubs.answer.mock.calls.length).toBe(asked);
  });
});

describe('a link with no way through', () => {
  it('when this side reached no relay (its network, or a relay that refused it): the meeting ends for it, saying why and what to try', async () => {
    stubs.answer.mockResolvedValue(iceAnswer('relay'));
    const { socket, pcs } = await inACall('Sam');
    pcs[0]!.gathers('host');
    await failsForGood(pcs[0]!);
    expect(toasts.error).toHaveBeenCalledWith(messages.peerConnectionError, messages.mediaBlocked);
    expect(store.getState()).toMatchObject({ phase: 'failed', failure: messages.mediaBlocked });
    expect(socket.sent.map((message) => message.event)).toContain('request:leave_room');
  });

  it('when this side reached the relay: the peer stays, marked as without media, and the meeting goes on', async () => {
    stubs.answer.mockResolvedValue(iceAnswer('relay'));
    const { socket, pcs } = await inACall('Sam');
    pcs[0]!.gathers('host', 'relay');
    await failsForGood(pcs[0]!);
    expect(store.getState().phase).toBe('joined');
    expect(store.getState().peers['Sam-peer']).toMatchObject({ status: 'error' });
    expect(toasts.medium).toHaveBeenCalledWith('No video connection with Sam: their network may be blocking it');
    // (The only error toast is the camera's: there is none in tests.)
    expect(toasts.error).not.toHaveBeenCalledWith(messages.peerConnectionError, expect.anything());
    expect(socket.sent.map((message) => message.event)).not.toContain('request:leave_room');
  });

  it('when the peer gives up first while this side reached no relay either: this side leaves too, told why', async () => {
    stubs.answer.mockResolvedValue(iceAnswer('relay'));
    const { socket, pcs } = await inACall('Sam');
    pcs[0]!.gathers();
    socket.serverSays('action:terminate_peer_connection', { userId: 'Sam-peer' });
    expect(toasts.error).toHaveBeenCalledWith(messages.peerConnectionError, messages.mediaBlocked);
    expect(store.getState()).toMatchObject({ phase: 'failed', failure: messages.mediaBlocked });
  });

  it('a peer who leaves before our gathering has ended, or after we reached the relay, is only said goodbye to', async () => {
    stubs.answer.mockResolvedValue(iceAnswer('relay'));
    const { socket, pcs } = await inACall('Sam', 'Kim');
    socket.serverSays('action:terminate_peer_connection', { userId: 'Sam-peer' });
    pcs[1]!.gathers('relay');
    socket.serverSays('action:terminate_peer_connection', { userId: 'Kim-peer' });
    expect(store.getState().phase).toBe('joined');
    expect(toasts.medium).toHaveBeenCalledWith('Sam left the meeting');
    expect(toasts.medium).toHaveBeenCalledWith('Kim left the meeting');
  });

  it('with no STUN or TURN to tell by: ours when no other link is up, the peer’s when one is', async () => {
    stubs.answer.mockResolvedValue({ data: [] });
    const { pcs } = await inACall('Sam', 'Kim');
    pcs[1]!.iceState('connected');
    await failsForGood(pcs[0]!);
    expect(store.getState().phase).toBe('joined');
    expect(store.getState().peers['Sam-peer']).toMatchObject({ status: 'error' });

    meeting.leaveRoom();
    const alone = await inACall('Lee');
    await failsForGood(alone.pcs[0]!);
    expect(store.getState()).toMatchObject({ phase: 'failed', failure: messages.mediaBlocked });
  });
});
