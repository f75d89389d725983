// Breakout rooms on the client: where each person goes as the split changes, what the link keeps of
// what the server says (a host's message to all groups, the time running out), and the cards a host
// and a choosing student see.
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import i18n from 'i18next';
import { fireEvent, render, screen } from '@testing-library/react';
import { MantineProvider } from '@mantine/core';
import { MemoryRouter } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { groupRoomId, type BreakoutView } from '@mooz/contract/breakouts';
import type { RoomControls } from '@mooz/contract/realtime';
import { storageKeys } from '@mooz/contract/config';
import { initialMeetingState, useMeetingStore } from '../meeting-store';
import { initialRoomControls, useRoomControls } from '../services/room-controls';
import type { MeetingSocket } from '../services/handshake';
import { StandInSocket } from '../../../../test/stand-in-socket';
import { attachBreakouts, departureText, detachBreakouts, useBreakouts, whereToBe } from './breakouts-link';
import { BreakoutBadge, BreakoutsCard } from './breakouts-card';

const main = 'main-room';
const split = (over: Partial<BreakoutView> = {}): BreakoutView => ({
  id: 7,
  roomId: main,
  mode: 'manual',
  groups: [
    { roomId: groupRoomId(main, 7, 0), members: [{ userId: 1, userName: 'Ana' }] },
    { roomId: groupRoomId(main, 7, 1), members: [{ userId: 2, userName: 'Ben' }] },
  ],
  openedAt: new Date().toISOString(),
  endsAt: null,
  closed: false,
  ...over,
});
const controls = (hosts: string[]): RoomControls => ({
  roomId: main,
  hosts,
  unmuteLocked: false,
  lobbyEnabled: false,
  classSession: true,
  hands: [],
  privateChatLocked: false,
});
const show = (ui: React.ReactNode) =>
  render(
    <MantineProvider>
      <MemoryRouter>{ui}</MemoryRouter>
    </MantineProvider>,
  );

afterEach(() => {
  vi.useRealTimers();
  useBreakouts.setState({ known: false, split: null, unplaced: [], timeUp: false, formOpen: false, cardHidden: false });
  useRoomControls.setState(initialRoomControls());
  useMeetingStore.setState({ ...initialMeetingState(), userName: '', peerId: '' });
  localStorage.clear();
});

describe('where a person goes', () => {
  const group0 = groupRoomId(main, 7, 0);
  const group1 = groupRoomId(main, 7, 1);
  it('takes a student to their group, and keeps them there', () => {
    expect(whereToBe(split(), false, main, 1, false)).toBe(group0);
    expect(whereToBe(split(), false, group0, 1, false)).toBeNull();
    // Moved by a host to the other group.
    expect(whereToBe(split(), false, group1, 1, false)).toBe(group0);
  });
  it('leaves someone in no group in the main room, and brings them back from a group', () => {
    expect(whereToBe(split(), false, main, 3, false)).toBeNull();
    expect(whereToBe(split(), false, group0, 3, false)).toBe(main);
  });
  it('brings everyone back when the split is closed or its time is up, hosts too', () => {
    for (const [closed, timeUp] of [
      [true, false],
      [false, true],
    ] as const) {
      expect(whereToBe(split({ closed }), timeUp, group0, 1, false)).toBe(main);
      expect(whereToBe(split({ closed }), timeUp, group1, 9, true)).toBe(main);
      expect(whereToBe(split({ closed }), timeUp, main, 1, false)).toBeNull();
    }
    expect(whereToBe(null, false, group0, 1, false)).toBe(main);
    // A group of an earlier split.
    expect(whereToBe(split({ id: 8 }), false, group0, 9, true)).toBe(main);
  });
  it('lets a host go where they choose while it is open', () => {
    expect(whereToBe(split(), false, main, 9, true)).toBeNull();
    expect(whereToBe(split(), false, group1, 9, true)).toBeNull();
  });
});

describe('the breakouts link', () => {
  function attached(roomId = main) {
    const socket = new StandInSocket();
    useMeetingStore.setState({ roomId, peerId: 'ana-peer', phase: 'joined' });
    attachBreakouts(socket as unknown as MeetingSocket);
    return socket;
  }

  it("asks for the split on joining, follows the server's word, and forgets it with the socket", () => {
    const socket = attached(groupRoomId(main, 7, 0));
    // Nobody moves on what this tab knew in its room before.
    expect(useBreakouts.getState().known).toBe(false);
    const asked = socket.sent.find((s) => s.event === 'request:breakouts_state')!;
    expect(asked.payload).toEqual({ roomId: groupRoomId(main, 7, 0) });
    asked.ack!({ breakouts: split(), unplaced: [] });
    expect(useBreakouts.getState()).toMatchObject({ known: true, split: { id: 7 } });
    socket.serverSays('action:breakouts', { roomId: 'another-room', breakouts: split({ id: 9 }) });
    expect(useBreakouts.getState().split?.id).toBe(7);
    socket.serverSays('action:breakouts', { roomId: main, breakouts: split({ closed: true }) });
    expect(useBreakouts.getState().split?.closed).toBe(true);
    detachBreakouts(socket as unknown as MeetingSocket);
    expect(useBreakouts.getState().split).toBeNull();
  });

  it("puts a host's message to all groups in the chat", () => {
    const socket = attached();
    socket.serverSays('action:breakouts_broadcast', { roomId: main, fromName: 'Tess', text: 'Two minutes left' });
    expect(useMeetingStore.getState().messages).toMatchObject([{ text: 'Two minutes left', mine: false }]);
    expect(useMeetingStore.getState().messages[0]!.privateWith).toBeUndefined();
    detachBreakouts(socket as unknown as MeetingSocket);
  });

  it('calls the time up when a timed split ends, even before the server says so', () => {
    vi.useFakeTimers();
    const socket = attached();
    socket.serverSays('action:breakouts', { roomId: main, breakouts: split({ endsAt: new Date(Date.now() + 90_000).toISOString() }) });
    vi.advanceTimersByTime(89_000);
    expect(useBreakouts.getState().timeUp).toBe(false);
    vi.advanceTimersByTime(2_000);
    expect(useBreakouts.getState().timeUp).toBe(true);
    detachBreakouts(socket as unknown as MeetingSocket);
  });
});

describe('the breakout cards', () => {
  it('show a host every group with its people, a way in to each, and whom to place', () => {
    useMeetingStore.setState({ roomId: main, peerId: 'tess-peer' });
    useRoomControls.setState({ controls: controls(['tess-peer']) });
    useBreakouts.setState({ split: split(), unplaced: [{ userId: 3, userName: 'Cai' }] });
    show(<BreakoutsCard />);
    expect(screen.getAllByTestId('breakout-group')).toHaveLength(2);
    expect(screen.getAllByTestId('breakout-group')[0]).toHaveTextContent('Ana');
    expect(screen.getAllByTestId('breakout-visit')).toHaveLength(2);
    expect(screen.getByTestId('breakouts-unplaced')).toHaveTextContent('Cai');
    expect(screen.getByTestId('breakouts-close')).toBeInTheDocument();
    // Put away, it stays away until the host menu brings it back.
    fireEvent.click(screen.getByLabelText('meeting.breakouts.hide'));
    expect(screen.queryByTestId('breakouts-card')).toBeNull();
  });

  it('let a student choose a group only when the split lets them, and only until placed', () => {
    localStorage.setItem(storageKeys.user, JSON.stringify({ id: 3 }));
    useMeetingStore.setState({ roomId: main, peerId: 'cai-peer' });
    useRoomControls.setState({ controls: controls(['tess-peer']) });
    useBreakouts.setState({ split: split({ mode: 'choose' }) });
    const { unmount } = show(<BreakoutsCard />);
    expect(screen.getAllByTestId('breakout-choose')).toHaveLength(2);
    unmount();
    // Placed (Ana), or split by hand: nothing to choose.
    for (const [user, mode] of [
      [1, 'choose'],
      [3, 'manual'],
    ] as const) {
      localStorage.setItem(storageKeys.user, JSON.stringify({ id: user }));
      useBreakouts.setState({ split: split({ mode }) });
      const shown = show(<BreakoutsCard />);
      expect(screen.queryByTestId('breakouts-choose')).toBeNull();
      expect(screen.queryByTestId('breakouts-card')).toBeNull();
      shown.unmount();
    }
  });

  it('tell someone in a group which one it is', () => {
    useMeetingStore.setState({ roomId: groupRoomId(main, 7, 1) });
    useBreakouts.setState({ split: split() });
    show(<BreakoutBadge />);
    expect(screen.getByTestId('breakout-badge')).toHaveTextContent('meeting.breakouts.group');
  });
});

// Last: it sets up the English texts, which the tests above read as keys.
describe('someone leaving a room while a split is open', () => {
  it('went to their group, when placed in another; else left the meeting', async () => {
    const english = JSON.parse(readFileSync(resolve(import.meta.dirname, '../../../../public/locales/en/translation.json'), 'utf8'));
    await i18n.init({ lng: 'en', resources: { en: { translation: english } }, keySeparator: false, nsSeparator: false });
    useMeetingStore.setState({ roomId: main });
    useBreakouts.setState({ split: split() });
    expect(departureText('Ben')).toBe('Ben went to Group 2');
    expect(departureText('Cai')).toBe('Cai left the meeting');
    // In Ben's own group, or once the split is over, a leave is a leave.
    useMeetingStore.setState({ roomId: groupRoomId(main, 7, 1) });
    expect(departureText('Ben')).toBe('Ben left the meeting');
    useMeetingStore.setState({ roomId: main });
    useBreakouts.setState({ split: split({ closed: true }) });
    expect(departureText('Ben')).toBe('Ben left the meeting');
  });
});
