// An ad hoc meeting is not a class: its guests are told the meeting ended, and its
// host's People tab does not ask for a class's attendance (the server has none for it: 404).
import { render, screen } from '@testing-library/react';
import { MantineProvider } from '@mantine/core';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { MemoryRouter } from 'react-router';
import { afterEach, describe, expect, it } from 'vitest';
import { buildAbility } from '@mooz/contract/permissions';
import type { RoomControls } from '@mooz/contract/realtime';
import { AbilityContext } from '../../../lib/ability';
import { initialMeetingState, useMeetingStore } from '../meeting-store';
import { initialRoomControls, useRoomControls } from '../services/room-controls';
import { RoomClosedScreen } from './classroom-screens';
import { LiveAttendance } from './live-attendance';

const controls = (classSession: boolean): RoomControls => ({
  roomId: 'room-1',
  hosts: [],
  unmuteLocked: false,
  lobbyEnabled: false,
  classSession,
  hands: [],
  privateChatLocked: false,
});

afterEach(() => {
  useRoomControls.setState(initialRoomControls());
  useMeetingStore.setState(initialMeetingState());
});

function renderClosed() {
  render(
    <MantineProvider>
      <MemoryRouter>
        <RoomClosedScreen />
      </MemoryRouter>
    </MantineProvider>,
  );
}

describe('the screen after a host ends the room', () => {
  it('says the meeting ended in an ad hoc room', () => {
    useRoomControls.setState({ controls: controls(false), closed: { reason: 'ended', byName: 'Wanda' } });
    renderClosed();
    expect(screen.getByText('meeting.classroom.meetingEndedTitle')).toBeInTheDocument();
    expect(screen.getByTestId('room-closed-reason')).toHaveTextContent('meeting.classroom.meetingEndedBy');
    expect(screen.queryByText('meeting.classroom.endedTitle')).not.toBeInTheDocument();
  });

  it('says the class ended in a class session', () => {
    useRoomControls.setState({ controls: controls(true), closed: { reason: 'ended', byName: 'Wanda' } });
    renderClosed();
    expect(screen.getByText('meeting.classroom.endedTitle')).toBeInTheDocument();
  });
});

describe('the live attendance', () => {
  /** Whether the People tab asks the server for the attendance (an enabled query). */
  function asks(classSession: boolean) {
    const client = new QueryClient({ defaultOptions: { queries: { queryFn: () => new Promise(() => {}) } } });
    useMeetingStore.setState({ roomId: 'room-1', phase: 'joined' });
    useRoomControls.setState({ controls: controls(classSession) });
    render(
      <MantineProvider>
        <QueryClientProvider client={client}>
          <AbilityContext.Provider value={buildAbility([{ action: 'update', subject: 'Session' }])}>
            <LiveAttendance />
          </AbilityContext.Provider>
        </QueryClientProvider>
      </MantineProvider>,
    );
    const query = client.getQueryCache().find({ queryKey: ['meeting', 'room-1', 'attendance'] });
    return !!query && !query.isDisabled();
  }

  it('is not asked for in an ad hoc room, even by its host', () => {
    expect(asks(false)).toBe(false);
  });

  it("is asked for in a class session's room", () => {
    expect(asks(true)).toBe(true);
  });
});
