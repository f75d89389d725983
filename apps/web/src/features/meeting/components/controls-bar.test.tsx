// Chat messages not read yet are counted on the way to the chats: the chat toast
// goes after a few seconds, the count stays until the chats are opened.
import { render, screen } from '@testing-library/react';
import { MantineProvider } from '@mantine/core';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { MemoryRouter } from 'react-router';
import { afterEach, describe, expect, it } from 'vitest';
import { buildAbility } from '@mooz/contract/permissions';
import { AbilityContext } from '../../../lib/ability';
import { initialMeetingState, useMeetingStore } from '../meeting-store';
import { ControlsBar } from './controls-bar';

afterEach(() => {
  useMeetingStore.setState(initialMeetingState());
});

function renderBar() {
  render(
    <MantineProvider>
      <MemoryRouter>
        <QueryClientProvider client={new QueryClient()}>
          <AbilityContext.Provider value={buildAbility([])}>
            <ControlsBar roomId="room-1" fullscreen={false} onFullscreen={() => {}} inviteOpened={false} onInvite={() => {}} onTogglePanel={() => {}} />
          </AbilityContext.Provider>
        </QueryClientProvider>
      </MemoryRouter>
    </MantineProvider>,
  );
}

// Without i18n set up, t() answers its keys.
describe('the unread chat count', () => {
  it('shows on the side panel button, and is in its name, while the chats are closed', () => {
    useMeetingStore.setState({ phase: 'joined', unread: 3, panelOpen: false });
    renderBar();
    const panel = screen.getByTestId('toggle-panel');
    expect(panel).toHaveAccessibleName('meeting.controls.withUnread');
    expect(panel.parentElement?.parentElement).toHaveTextContent('3');
  });

  it('is not on the side panel button while its chats tab shows', () => {
    useMeetingStore.setState({ phase: 'joined', unread: 0, panelOpen: true, panelTab: 'chats' });
    renderBar();
    expect(screen.getByTestId('toggle-panel')).toHaveAccessibleName('meeting.controls.panel');
  });
});
