// The recording notice everyone in a room sees, driven by the server's `action:recording_state` events
// through the meeting's signalling (a stand-in socket speaks as the server; the server's side is tested
// against real sockets in apps/server, and the whole path end to end in e2e/recording-live.spec.ts).
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { act, render, screen } from '@testing-library/react';
import { MantineProvider } from '@mantine/core';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import i18n from 'i18next';
import { initReactI18next } from 'react-i18next';
import type { Room } from '@mooz/contract/realtime';
import type { RoomRecording } from '@mooz/contract/recordings';
import { initialMeetingState, useMeetingStore } from '../meeting-store';
import { enterRoom, leaveRoom } from '../services/meeting';
import { RecordingNotice } from './recording-notice';
import { stubMediaStream } from '../../../../test/meeting-stubs';
import { StandInSocket as BaseStandInSocket } from '../../../../test/stand-in-socket';

/** What the server says reaches the page inside React's act. */
class StandInSocket extends BaseStandInSocket {
  serverSays(event: string, payload?: unknown) {
    act(() => super.serverSays(event, payload));
  }
}

const sockets = vi.hoisted(() => ({ current: null as unknown }));

vi.mock('socket.io-client', () => ({
  io: () => {
    sockets.current = new StandInSocket();
    return sockets.current;
  },
}));
vi.mock('../../../lib/api', async () => (await import('../../../../test/meeting-stubs')).standInApi());
vi.mock('../services/media', async () => (await import('../../../../test/meeting-stubs')).withoutDevices);

const room: Room = { id: 'room-1', name: 'Pottery', capacity: 10, created_by: 3 };
const recording: RoomRecording = { id: 41, started_by: 3, started_by_name: 'Tess Teacher', started_at: '2026-11-23T10:00:00.000Z' };

/** Joins the room through the stand-in server; the notice is on the page. */
async function joinedWithNotice(): Promise<StandInSocket> {
  render(
    <MantineProvider>
      <RecordingNotice />
    </MantineProvider>,
  );
  await act(() => enterRoom(room.id, 'Sam'));
  const socket = sockets.current as StandInSocket;
  socket.serverSays('connect');
  act(() => socket.sent.find((message) => message.event === 'request:join_room')!.ack!({ room }));
  return socket;
}

beforeAll(async () => {
  const english = JSON.parse(readFileSync(resolve(import.meta.dirname, '../../../../public/locales/en/translation.json'), 'utf8'));
  await i18n.use(initReactI18next).init({ lng: 'en', resources: { en: { translation: english } }, keySeparator: false, nsSeparator: false });
});

beforeEach(stubMediaStream);

afterEach(() => {
  act(() => leaveRoom());
  useMeetingStore.setState({ ...initialMeetingState(), userName: '', peerId: '' });
  vi.unstubAllGlobals();
});

describe('the recording notice', () => {
  it('is not shown while nobody records', async () => {
    await joinedWithNotice();
    expect(screen.queryByTestId('recording-notice')).toBeNull();
    // The live region is there already, so the notice is announced when it appears.
    expect(screen.getByRole('status')).toBeEmptyDOMElement();
  });

  it('says who started the recording, in the live region, and goes when it stops', async () => {
    const socket = await joinedWithNotice();
    socket.serverSays('action:recording_state', { roomId: room.id, recording });
    expect(screen.getByRole('status')).toHaveTextContent('Recording — started by Tess Teacher');
    expect(screen.getByTestId('recording-notice')).toHaveAttribute('data-recording-id', '41');

    socket.serverSays('action:recording_state', { roomId: room.id, recording: null });
    expect(screen.queryByTestId('recording-notice')).toBeNull();
  });

  it('is shown to one who joins while a recording runs (the server tells joiners after the join)', async () => {
    const socket = await joinedWithNotice();
    socket.serverSays('action:recording_state', { roomId: room.id, recording: { ...recording, started_by_name: 'Ada Admin' } });
    expect(screen.getByTestId('recording-notice')).toHaveTextContent('Recording — started by Ada Admin');
  });

  it('ignores news of another room', async () => {
    const socket = await joinedWithNotice();
    socket.serverSays('action:recording_state', { roomId: 'another-room', recording });
    expect(screen.queryByTestId('recording-notice')).toBeNull();
  });

  it('forgets a recording that ended while the connection was lost, once joined again', async () => {
    const socket = await joinedWithNotice();
    socket.serverSays('action:recording_state', { roomId: room.id, recording });
    socket.serverSays('disconnect', 'transport close');
    socket.serverSays('connect');
    const rejoin = socket.sent.filter((message) => message.event === 'request:join_room')[1]!;
    // No recording under way: the server sends no state after this join.
    act(() => rejoin.ack!({ room }));
    expect(screen.queryByTestId('recording-notice')).toBeNull();
  });
});
