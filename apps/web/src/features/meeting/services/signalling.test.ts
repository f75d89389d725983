// The meeting client's answers to what the signalling server tells it about its own place, against a
// stand-in socket (the server side is tested against real sockets in apps/server).
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import i18n from 'i18next';
import type { Room } from '@mooz/contract/realtime';
import { initialMeetingState, useMeetingStore } from '../meeting-store';
import { enterRoom, leaveRoom, prepareRoom } from './meeting';
import { meetingToast } from './meeting-toasts';
import { stubMediaStream } from '../../../../test/meeting-stubs';
import { StandInSocket } from '../../../../test/stand-in-socket';

/** What the client sent, and a way to speak to it as the server. */
const sockets = vi.hoisted(() => ({ current: null as unknown, opened: 0, iceRequests: 0 }));

vi.mock('socket.io-client', () => ({
  io: () => {
    sockets.current = new StandInSocket();
    sockets.opened += 1;
    return sockets.current;
  },
}));
vi.mock('../../../lib/api', async () =>
  // The only call the meeting makes is for the ICE servers.
  (await import('../../../../test/meeting-stubs')).standInApi(async () => {
    sockets.iceRequests += 1;
    return { data: [] };
  }),
);
vi.mock('./media', async () => (await import('../../../../test/meeting-stubs')).withoutDevices);

const room: Room = { id: 'room-1', name: 'Standup', capacity: 10, created_by: 1 };

/** Enters the room and lets the server accept the first join. */
async function joined(): Promise<StandInSocket> {
  await enterRoom(room.id, 'Tess');
  const socket = sockets.current as StandInSocket;
  socket.serverSays('connect');
  socket.joins()[0]!.ack!({ room });
  return socket;
}

beforeAll(async () => {
  const english = JSON.parse(readFileSync(resolve(import.meta.dirname, '../../../../public/locales/en/translation.json'), 'utf8'));
  await i18n.init({ lng: 'en', resources: { en: { translation: english } }, keySeparator: false, nsSeparator: false });
});

beforeEach(stubMediaStream);

afterEach(() => {
  leaveRoom();
  useMeetingStore.setState({ ...initialMeetingState(), userName: '', peerId: '' });
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
  vi.useRealTimers();
});

describe('being asked to rejoin', () => {
  it('joins the room again by itself and stays in the meeting', async () => {
    const socket = await joined();
    expect(useMeetingStore.getState().phase).toBe('joined');

    socket.serverSays('action:rejoin_required', { roomId: room.id });
    expect(socket.joins()).toHaveLength(2);
    expect(socket.joins()[1]!.payload).toEqual({ roomId: room.id, userName: 'Tess' });
    socket.joins()[1]!.ack!({ room });
    expect(useMeetingStore.getState()).toMatchObject({ phase: 'joined', failure: null, roomId: room.id });
  });

  it('leaves with the reason when the rejoin is refused', async () => {
    const socket = await joined();
    const shown = vi.spyOn(meetingToast, 'error').mockImplementation(() => undefined);
    socket.serverSays('action:rejoin_required', { roomId: room.id });
    socket.joins()[1]!.ack!({ error: 'Room is full' });
    expect(shown).toHaveBeenCalledWith('Room is full');
    expect(useMeetingStore.getState().phase).toBe('left');
  });

  it('ignores a request about another room', async () => {
    const socket = await joined();
    socket.serverSays('action:rejoin_required', { roomId: 'another-room' });
    expect(socket.joins()).toHaveLength(1);
  });
});

describe('losing the place to the same account elsewhere', () => {
  it('says so and leaves the meeting', async () => {
    const socket = await joined();
    const shown = vi.spyOn(meetingToast, 'error').mockImplementation(() => undefined);
    socket.serverSays('action:replaced_elsewhere', { roomId: room.id });
    expect(shown).toHaveBeenCalledWith('You joined this meeting with the same account on another device or window.');
    expect(useMeetingStore.getState().phase).toBe('left');
    expect(socket.sent.map((message) => message.event)).toContain('request:leave_room');
  });
});

describe('a room its host ends', () => {
  const controls = (classSession: boolean) => ({ roomId: room.id, hosts: [], unmuteLocked: false, lobbyEnabled: false, classSession, hands: [], privateChatLocked: false });

  it('tells the people of an ad hoc meeting that the meeting ended, not a class', async () => {
    const socket = await joined();
    const shown = vi.spyOn(meetingToast, 'error').mockImplementation(() => undefined);
    socket.serverSays('action:room_controls', controls(false));
    socket.serverSays('action:room_closed', { roomId: room.id, reason: 'ended', byName: 'Olga' });
    expect(shown).toHaveBeenCalledWith('Olga ended the meeting');
  });

  it('tells the people of a class that the class ended', async () => {
    const socket = await joined();
    const shown = vi.spyOn(meetingToast, 'error').mockImplementation(() => undefined);
    socket.serverSays('action:room_controls', controls(true));
    socket.serverSays('action:room_closed', { roomId: room.id, reason: 'ended', byName: 'Tess' });
    expect(shown).toHaveBeenCalledWith('Tess ended the class');
  });
});

describe('a meeting that is over', () => {
  it('ignores a late answer to its join: the next meeting starts clean', async () => {
    await enterRoom(room.id, 'Tess');
    const first = sockets.current as StandInSocket;
    first.serverSays('connect');
    leaveRoom();
    first.joins()[0]!.ack!({ room });
    expect(useMeetingStore.getState()).toMatchObject({ phase: 'left', room: null });

    await enterRoom(room.id, 'Tess');
    first.joins()[0]!.ack!({ error: 'Room is full' });
    expect(useMeetingStore.getState()).toMatchObject({ phase: 'connecting', failure: null });
  });
});

// The lobby begins the meeting at the click (prepareRoom), so the others link to us while the room's
// page is still loading; the page's enterRoom takes that meeting over instead of joining a second time.
describe('a join begun at the click on Join', () => {
  /** Lets the camera and ICE server promises settle, so the join goes out once connected. */
  const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

  it('is the meeting the page enters: one socket, one join', async () => {
    const before = sockets.opened;
    prepareRoom(room.id, 'Tess ');
    const socket = sockets.current as StandInSocket;
    socket.serverSays('connect');
    await settle();
    expect(socket.joins()).toHaveLength(1);
    socket.joins()[0]!.ack!({ room });

    await enterRoom(room.id, 'Tess');
    expect(sockets.opened - before).toBe(1);
    expect(socket.joins()).toHaveLength(1);
    expect(useMeetingStore.getState()).toMatchObject({ phase: 'joined', roomId: room.id, userName: 'Tess' });
  });

  it('refused before the page came: the page shows the refusal rather than joining again', async () => {
    prepareRoom(room.id, 'Tess');
    const socket = sockets.current as StandInSocket;
    socket.serverSays('connect');
    await settle();
    socket.joins()[0]!.ack!({ error: 'Room is full' });
    const before = sockets.opened;

    await enterRoom(room.id, 'Tess');
    expect(sockets.opened).toBe(before);
    expect(useMeetingStore.getState()).toMatchObject({ phase: 'failed', failure: 'Room is full' });
  });

  it('for another room: that one is left and the page joins its own', async () => {
    prepareRoom('room-0', 'Tess');
    const early = sockets.current as StandInSocket;
    early.serverSays('connect');
    await settle();
    early.joins()[0]!.ack!({ room: { ...room, id: 'room-0' } });

    await enterRoom(room.id, 'Tess');
    expect(early.sent.map((message) => message.event)).toContain('request:leave_room');
    expect(early.connected).toBe(false);
    expect(sockets.current).not.toBe(early);
    expect(useMeetingStore.getState()).toMatchObject({ phase: 'connecting', roomId: room.id });
  });

  it('whose page never comes is left after a while', async () => {
    vi.useFakeTimers();
    prepareRoom(room.id, 'Tess');
    const socket = sockets.current as StandInSocket;
    socket.serverSays('connect');
    await vi.advanceTimersByTimeAsync(0);
    socket.joins()[0]!.ack!({ room });
    await vi.advanceTimersByTimeAsync(15_000);
    expect(socket.sent.map((message) => message.event)).toContain('request:leave_room');
    expect(useMeetingStore.getState().phase).toBe('left');
  });
});

describe('the ICE servers', () => {
  it('are asked for once for successive joins (they are the server configuration), not at every join', async () => {
    const before = sockets.iceRequests;
    await enterRoom(room.id, 'Tess');
    leaveRoom();
    await enterRoom(room.id, 'Tess');
    prepareRoom(room.id, 'Tess');
    expect(sockets.iceRequests - before).toBeLessThanOrEqual(1);
  });
});
