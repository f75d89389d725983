// Surviving a network blip on the client, against a stand-in socket and stand-in peer
// connections: a dropped socket shows "reconnecting" and keeps every peer; the reconnection hands the
// room back in its handshake and joins again; once answered, links that are not connected recover at
// once (an unanswered offer is sent again, otherwise ICE restarts), and the call goes on with the same
// peers. The server's side is tested in apps/server/src/realtime/reconnect.test.ts; the browser's in
// e2e/reconnect.spec.ts.
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import i18n from 'i18next';
import { limits } from '@mooz/contract/limits';
import type { Room } from '@mooz/contract/realtime';
import { initialMeetingState, useMeetingStore } from '../meeting-store';
import { enterRoom, leaveRoom } from './meeting';
import { meetingToast } from './meeting-toasts';
import { stubMediaStream } from '../../../../test/meeting-stubs';
import { StandInPeerConnection as BasePeerConnection } from '../../../../test/stand-in-peer-connection';
import { StandInSocket } from '../../../../test/stand-in-socket';

/** A link whose states the test sets, and whose answers it watches. */
class StandInPeerConnection extends BasePeerConnection {
  static all: StandInPeerConnection[] = [];
  connectionState: RTCPeerConnectionState = 'new';
  setRemoteDescription = vi.fn(async () => undefined);
  constructor() {
    super();
    StandInPeerConnection.all.push(this);
  }
}

const sockets = vi.hoisted(() => ({ current: null as unknown }));

vi.mock('socket.io-client', () => ({
  io: (options: ConstructorParameters<typeof StandInSocket>[0]) => {
    sockets.current = new StandInSocket(options);
    return sockets.current;
  },
}));
vi.mock('../../../lib/api', async () => (await import('../../../../test/meeting-stubs')).standInApi());
vi.mock('./media', async () => (await import('../../../../test/meeting-stubs')).withoutDevices);

const room: Room = { id: 'room-1', name: 'Standup', capacity: 10, created_by: 1 };

/** In the room with one other peer, whose link is connected. */
async function inACall() {
  await enterRoom(room.id, 'Tess');
  const socket = sockets.current as StandInSocket;
  socket.serverSays('connect');
  socket.joins()[0]!.ack!({ room });
  // Our id is random: whichever side is polite, this side offers first as the one already in the room.
  socket.serverSays('action:establish_peer_connection', { userId: 'sam-peer', userName: 'Sam' });
  const pc = StandInPeerConnection.all.at(-1)!;
  pc.iceState('connected');
  expect(useMeetingStore.getState().peers['sam-peer']).toMatchObject({ status: 'connected' });
  return { socket, pc };
}

/** The socket drops (a transport close) and comes back; the server answers the join with the room. */
function blip(socket: StandInSocket) {
  socket.connected = false;
  socket.serverSays('disconnect', 'transport close');
}
function back(socket: StandInSocket) {
  socket.connected = true;
  socket.serverSays('connect');
  socket.joins().at(-1)!.ack!({ room });
}

beforeAll(async () => {
  const english = JSON.parse(readFileSync(resolve(import.meta.dirname, '../../../../public/locales/en/translation.json'), 'utf8'));
  await i18n.init({ lng: 'en', resources: { en: { translation: english } }, keySeparator: false, nsSeparator: false });
});

beforeEach(() => {
  StandInPeerConnection.all = [];
  stubMediaStream();
  vi.stubGlobal('RTCPeerConnection', StandInPeerConnection);
  vi.spyOn(meetingToast, 'short').mockImplementation(() => undefined);
  vi.spyOn(meetingToast, 'medium').mockImplementation(() => undefined);
});

afterEach(() => {
  vi.useRealTimers();
  leaveRoom();
  useMeetingStore.setState({ ...initialMeetingState(), userName: '', peerId: '' });
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe('a network blip', () => {
  it('shows reconnecting and keeps the peers, hands the room back in the handshake, and joins again', async () => {
    const { socket } = await inACall();
    const peerId = useMeetingStore.getState().peerId;
    blip(socket);
    expect(useMeetingStore.getState().phase).toBe('reconnecting');
    expect(Object.keys(useMeetingStore.getState().peers)).toEqual(['sam-peer']);
    // socket.io asks for the handshake again on each try: the same peer id, and the room to resume.
    expect(socket.handshake()).toMatchObject({ sessionId: peerId, currentRoomId: room.id });

    back(socket);
    expect(socket.joins()).toHaveLength(2);
    expect(socket.joins()[1]!.payload).toEqual({ roomId: room.id, userName: 'Tess' });
    expect(useMeetingStore.getState()).toMatchObject({ phase: 'joined', failure: null });
    expect(Object.keys(useMeetingStore.getState().peers)).toEqual(['sam-peer']);
    expect(socket.sent.map((message) => message.event)).not.toContain('request:leave_room');
  });

  it('toasts no error while reconnecting (the badge says it), but does when the first connection fails', async () => {
    // (Other error toasts come and go: no camera in tests.)
    const error = vi.spyOn(meetingToast, 'error').mockImplementation(() => undefined);
    const outageToasts = () => error.mock.calls.filter(([message]) => message === 'websocket error').length;
    const { socket } = await inACall();
    blip(socket);
    socket.serverSays('connect_error', new Error('websocket error'));
    socket.serverSays('connect_error', new Error('websocket error'));
    expect(outageToasts()).toBe(0);
    expect(useMeetingStore.getState().phase).toBe('reconnecting');
    leaveRoom();

    await enterRoom(room.id, 'Tess');
    (sockets.current as StandInSocket).serverSays('connect_error', new Error('websocket error'));
    (sockets.current as StandInSocket).serverSays('connect_error', new Error('websocket error'));
    expect(outageToasts()).toBe(1);
  });

  it('restarts ICE at once on a link that went down meanwhile, and leaves a connected one alone', async () => {
    const { socket, pc } = await inACall();
    blip(socket);
    pc.iceState('disconnected');
    expect(pc.restartIce).not.toHaveBeenCalled();
    back(socket);
    expect(pc.restartIce).toHaveBeenCalledTimes(1);

    pc.iceState('connected');
    blip(socket);
    back(socket);
    expect(pc.restartIce).toHaveBeenCalledTimes(1);
  });

  it('sends an offer still unanswered again instead of waiting for an answer that was lost', async () => {
    const { socket, pc } = await inACall();
    blip(socket);
    pc.iceState('disconnected');
    const offer = { type: 'offer', sdp: 'v=0 restart' };
    pc.signalingState = 'have-local-offer';
    pc.localDescription = { ...offer, toJSON: () => offer };
    const before = socket.signalsTo('sam-peer').length;
    back(socket);
    expect(pc.restartIce).not.toHaveBeenCalled();
    expect(socket.signalsTo('sam-peer').slice(before)).toEqual([{ sdpSignal: { description: offer }, metaData: expect.any(Object) }]);
  });

  it('ignores an answer that comes when nothing awaits one (both copies of a resent offer were answered)', async () => {
    const { socket, pc } = await inACall();
    const error = vi.spyOn(meetingToast, 'error').mockImplementation(() => undefined);
    pc.signalingState = 'stable';
    socket.serverSays('action:message_received', { from: 'sam-peer', data: { sdpSignal: { description: { type: 'answer', sdp: 'v=0' } }, metaData: {} } });
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(pc.setRemoteDescription).not.toHaveBeenCalled();
    expect(error).not.toHaveBeenCalled();
    expect(useMeetingStore.getState()).toMatchObject({ phase: 'joined', peers: { 'sam-peer': { status: 'connected' } } });
  });

  it('after a drop past the grace the server gives a fresh membership: the old links go, the new ones come', async () => {
    const { socket } = await inACall();
    blip(socket);
    back(socket);
    socket.serverSays('action:room_connection_established', { room });
    expect(useMeetingStore.getState().peers).toEqual({});
    socket.serverSays('action:establish_peer_connection', { userId: 'sam-peer', userName: 'Sam' });
    expect(Object.keys(useMeetingStore.getState().peers)).toEqual(['sam-peer']);
    expect(useMeetingStore.getState().phase).toBe('joined');
  });

  // The link a peer had before is closed on the way out; its last "closed" must not leave a timer that
  // removes the peer's next link by its id (it did, when the other came back within that delay: its new
  // link went, and its side, left unanswered, gave up and left the meeting).
  it('the others: a peer that left past the grace and came straight back keeps its new link', async () => {
    const { socket, pc } = await inACall();
    vi.useFakeTimers();
    socket.serverSays('action:terminate_peer_connection', { userId: 'sam-peer' });
    expect(pc.signalingState).toBe('closed');
    expect(useMeetingStore.getState().peers).toEqual({});
    socket.serverSays('action:establish_peer_connection', { userId: 'sam-peer', userName: 'Sam' });
    const fresh = StandInPeerConnection.all.at(-1)!;
    expect(fresh).not.toBe(pc);
    vi.advanceTimersByTime(limits.peerDestroyDelayMs * 2);
    expect(fresh.signalingState).not.toBe('closed');
    expect(Object.keys(useMeetingStore.getState().peers)).toEqual(['sam-peer']);
  });

  it('the one back after a drop past the grace: the links made for the fresh membership stay', async () => {
    const { socket, pc } = await inACall();
    vi.useFakeTimers();
    blip(socket);
    back(socket);
    socket.serverSays('action:room_connection_established', { room });
    expect(pc.signalingState).toBe('closed');
    socket.serverSays('action:message_received', { from: 'sam-peer', data: { connection: true, userName: 'Sam' } });
    const fresh = StandInPeerConnection.all.at(-1)!;
    expect(fresh).not.toBe(pc);
    vi.advanceTimersByTime(limits.peerDestroyDelayMs * 2);
    expect(fresh.signalingState).not.toBe('closed');
    expect(Object.keys(useMeetingStore.getState().peers)).toEqual(['sam-peer']);
  });
});
