// The poll card as a student and as a host sees it, and whom the chat may write to privately.
import { fireEvent, render, screen, within } from '@testing-library/react';
import { MantineProvider } from '@mantine/core';
import { afterEach, describe, expect, it } from 'vitest';
import type { PollView } from '@mooz/contract/classroom-tools';
import type { RoomControls } from '@mooz/contract/realtime';
import { initialMeetingState, useMeetingStore } from '../meeting-store';
import { initialRoomControls, useRoomControls } from '../services/room-controls';
import { ChatView } from '../components/chat-view';
import { PollCard } from './poll-card';
import { useClassroomTools } from './tools-link';
import { standInPeer } from '../../../../test/meeting-stubs';

const poll = (over: Partial<PollView> = {}): PollView => ({
  id: 4,
  question: 'Which lens makes light converge?',
  kind: 'single',
  options: ['Concave', 'Convex', 'Flat glass'],
  anonymous: true,
  graded: true,
  correct: null,
  openedAt: new Date().toISOString(),
  closesAt: null,
  closed: false,
  resultsShown: false,
  mine: null,
  results: null,
  ...over,
});

const controls = (over: Partial<RoomControls> = {}): RoomControls => ({
  roomId: 'room-1',
  hosts: ['tess-peer'],
  unmuteLocked: false,
  lobbyEnabled: false,
  classSession: true,
  hands: [],
  privateChatLocked: false,
  ...over,
});

const peer = (name: string) => standInPeer(`${name.toLowerCase()}-peer`, name);

const show = (ui: React.ReactNode) => render(<MantineProvider>{ui}</MantineProvider>);

afterEach(() => {
  useClassroomTools.setState({ reactions: {}, poll: null, pollHidden: false, pollFormOpen: false });
  useRoomControls.setState(initialRoomControls());
  useMeetingStore.setState({ ...initialMeetingState(), userName: '', peerId: '' });
});

describe('the poll card', () => {
  it('lets a student answer once a choice is made, and shows neither results nor host buttons', () => {
    useMeetingStore.setState({ peerId: 'sami-peer', roomId: 'room-1' });
    useRoomControls.setState({ controls: controls() });
    useClassroomTools.setState({ poll: poll() });
    show(<PollCard />);
    expect(screen.getByTestId('poll-question-text')).toHaveTextContent('Which lens makes light converge?');
    expect(screen.getAllByTestId('poll-choice')).toHaveLength(3);
    expect(screen.getByTestId('poll-submit')).toBeDisabled();
    fireEvent.click(screen.getByLabelText('Convex'));
    expect(screen.getByTestId('poll-submit')).toBeEnabled();
    expect(screen.queryByTestId('poll-results')).toBeNull();
    expect(screen.queryByTestId('poll-reveal')).toBeNull();
  });

  it("shows a student's own answer, then the results with the right answer once shown", () => {
    useMeetingStore.setState({ peerId: 'sami-peer', roomId: 'room-1' });
    useRoomControls.setState({ controls: controls() });
    useClassroomTools.setState({ poll: poll({ mine: { choices: [1], text: '' } }) });
    const { rerender } = show(<PollCard />);
    // Without i18n set up, t() answers its keys.
    expect(screen.getByTestId('poll-mine')).toHaveTextContent('meeting.poll.yourAnswerWas');
    expect(screen.queryByTestId('poll-submit')).toBeNull();
    useClassroomTools.setState({
      poll: poll({ mine: { choices: [1], text: '' }, closed: true, resultsShown: true, correct: [1], results: { answered: 3, counts: [1, 2, 0], answers: [] } }),
    });
    rerender(
      <MantineProvider>
        <PollCard />
      </MantineProvider>,
    );
    const results = screen.getAllByTestId('poll-result');
    expect(results.map((row) => row.dataset.count)).toEqual(['1', '2', '0']);
    expect(within(results[1]!).getByLabelText('meeting.poll.right')).toBeInTheDocument();
    expect(within(results[0]!).queryByLabelText('meeting.poll.right')).toBeNull();
    expect(screen.getByTestId('poll-closed')).toBeInTheDocument();
  });

  it("gives the host the live results and the poll's controls, and can be put away", () => {
    useMeetingStore.setState({ peerId: 'tess-peer', roomId: 'room-1' });
    useRoomControls.setState({ controls: controls() });
    useClassroomTools.setState({ poll: poll({ anonymous: false, kind: 'text', options: [], graded: false, results: { answered: 1, counts: [], answers: [{ name: 'Ana', choices: [], text: 'Fun' }] } }) });
    show(<PollCard />);
    expect(screen.queryByTestId('poll-submit')).toBeNull();
    expect(screen.getByTestId('poll-answers')).toHaveTextContent('Ana: Fun');
    for (const id of ['poll-reveal', 'poll-close', 'poll-download', 'poll-new']) expect(screen.getByTestId(id)).toBeInTheDocument();
    fireEvent.click(screen.getByLabelText('meeting.poll.hide'));
    expect(screen.queryByTestId('poll-card')).toBeNull();
  });
});

describe('the chat box, writing privately', () => {
  it('offers everyone to write to, or only the hosts once a host locked private chat between students', () => {
    // jsdom lays nothing out: the chat's scroll to its newest message has nowhere to go.
    Element.prototype.scrollTo = () => undefined;
    useMeetingStore.setState({
      peerId: 'sami-peer',
      roomId: 'room-1',
      phase: 'joined',
      peers: { 'tess-peer': { ...peer('Tess'), peerId: 'tess-peer' }, 'lina-peer': peer('Lina') },
    });
    useRoomControls.setState({ controls: controls() });
    const { rerender } = show(<ChatView testId="chat" />);
    const names = () => Array.from((screen.getByTestId('chat-to') as HTMLSelectElement).options).map((option) => option.value);
    expect(names()).toEqual(['', 'tess-peer', 'lina-peer']);
    useRoomControls.setState({ controls: controls({ privateChatLocked: true }) });
    rerender(
      <MantineProvider>
        <ChatView testId="chat" />
      </MantineProvider>,
    );
    expect(names()).toEqual(['', 'tess-peer']);
    // Chosen before the lock: the box writes to everyone again rather than to someone it may not.
    useMeetingStore.setState({ chatTo: 'lina-peer' });
    rerender(
      <MantineProvider>
        <ChatView testId="chat" />
      </MantineProvider>,
    );
    expect((screen.getByTestId('chat-to') as HTMLSelectElement).value).toBe('');
  });
});
