// The People list marks who has no media connection: in words and with an icon, not by
// colour alone, so a teacher sees which student's video cannot get through.
import { render, screen, within } from '@testing-library/react';
import { MantineProvider } from '@mantine/core';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { afterEach, describe, expect, it } from 'vitest';
import { buildAbility } from '@mooz/contract/permissions';
import { AbilityContext } from '../../../lib/ability';
import { initialRoomControls, useRoomControls } from '../services/room-controls';
import { initialMeetingState, useMeetingStore, type PeerStatus } from '../meeting-store';
import { standInPeer } from '../../../../test/meeting-stubs';
import { SidePanel } from './side-panel';

const peer = (name: string, status: PeerStatus) => standInPeer(`${name}-peer`, name, status);

/** The side panel, for someone who may do nothing more than take part. */
const showPanel = () =>
  render(
    <MantineProvider>
      <QueryClientProvider client={new QueryClient()}>
        <AbilityContext.Provider value={buildAbility([])}>
          <SidePanel onClose={() => undefined} />
        </AbilityContext.Provider>
      </QueryClientProvider>
    </MantineProvider>,
  );

afterEach(() => {
  useRoomControls.setState(initialRoomControls());
  useMeetingStore.setState({ ...initialMeetingState(), userName: '', peerId: '' });
});

describe("the People list's media marks", () => {
  it('says, for each person, whether their media connection is up', () => {
    useMeetingStore.setState({
      userName: 'Tess',
      peerId: 'tess-peer',
      phase: 'joined',
      peers: Object.fromEntries([peer('Sam', 'connected'), peer('Kim', 'error'), peer('Lee', 'signalling')].map((p) => [p.peerId, p])),
    });
    showPanel();
    // Without i18n set up, t() answers its keys.
    const marks = Object.fromEntries(
      screen.getAllByTestId('person').map((row) => {
        const mark = within(row).getByTestId('person-media');
        return [within(row).getByText(/^(Sam|Kim|Lee)$/).textContent, [mark.textContent, mark.dataset.media]];
      }),
    );
    expect(marks).toEqual({
      Sam: ['meeting.status.connected', 'connected'],
      Kim: ['meeting.status.error', 'none'],
      Lee: ['meeting.status.signalling', 'none'],
    });
  });
});

describe("the People list's names", () => {
  it('keep the row to themselves: a raised hand and the link state go on the line under the name', () => {
    useMeetingStore.setState({
      userName: 'Tess',
      peerId: 'tess-peer',
      phase: 'joined',
      peers: { 'Wanda-Maximoff-peer': peer('Wanda-Maximoff', 'connected') },
    });
    useRoomControls.setState({
      controls: {
        roomId: 'room-1',
        hosts: ['tess-peer'],
        unmuteLocked: false,
        lobbyEnabled: false,
        classSession: false,
        privateChatLocked: false,
        hands: [{ userId: 'Wanda-Maximoff-peer', userName: 'Wanda-Maximoff', raisedAt: new Date(0).toISOString() }],
      },
    });
    showPanel();
    const row = screen.getByTestId('person');
    const name = within(row).getByText('Wanda-Maximoff');
    const badges = within(row).getByTestId('person-badges');
    expect(within(badges).getByTestId('hand-badge')).toBeInTheDocument();
    expect(within(badges).getByTestId('person-media')).toBeInTheDocument();
    // The name and its badges share a column, one above the other, not the row.
    expect(name.parentElement).toBe(badges.parentElement);
    expect(name.parentElement).not.toBe(row);
  });
});
