import { fireEvent, render, screen } from '@testing-library/react';
import { MantineProvider } from '@mantine/core';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { MemoryRouter } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { messages } from '@mooz/contract/messages';
import { buildAbility } from '@mooz/contract/permissions';
import { AbilityContext } from '../../lib/ability';
import { MeetingLobbyPage } from './meeting-lobby-page';

// Without i18n set up, t() answers its keys, so the hints are checked by key.
function renderLobby() {
  const ability = buildAbility([{ action: 'create', subject: 'Meeting' }]);
  // No server answers here: the room limit stays the mesh's until one says otherwise.
  return render(
    <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
      <MantineProvider>
        <AbilityContext.Provider value={ability}>
          <MemoryRouter>
            <MeetingLobbyPage />
          </MemoryRouter>
        </AbilityContext.Provider>
      </MantineProvider>
    </QueryClientProvider>,
  );
}

/** A page that can hold a meeting: WebRTC and the camera are there (jsdom has neither). */
function stubWebrtcPage() {
  vi.stubGlobal('RTCPeerConnection', function RTCPeerConnection() {});
  vi.stubGlobal('navigator', { ...navigator, mediaDevices: { getUserMedia: () => Promise.reject(new Error('not in tests')) } });
}

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('the lobby says when no meeting can run in this page', () => {
  it('shows no notice and leaves both buttons on where a meeting can run', () => {
    stubWebrtcPage();
    renderLobby();
    expect(screen.queryByTestId('meeting-blocked')).not.toBeInTheDocument();
    expect(screen.getByTestId('create-meeting')).toBeEnabled();
    expect(screen.getByTestId('join-meeting')).toBeEnabled();
  });

  it('on plain http over the LAN (no secure context) it asks for https, and nothing can be started or joined', () => {
    stubWebrtcPage();
    vi.stubGlobal('isSecureContext', false);
    renderLobby();
    expect(screen.getByTestId('meeting-blocked')).toHaveTextContent('meeting.blocked.insecure');
    expect(screen.getByRole('alert')).toHaveTextContent('meeting.blocked.title');
    expect(screen.getByTestId('create-meeting')).toBeDisabled();
    expect(screen.getByTestId('join-meeting')).toBeDisabled();
  });

  it('in a browser without WebRTC it says so', () => {
    renderLobby();
    expect(screen.getByTestId('meeting-blocked')).toHaveTextContent(messages.webrtcUnsupported);
    expect(screen.getByTestId('create-meeting')).toBeDisabled();
    expect(screen.getByTestId('join-meeting')).toBeDisabled();
  });
});

describe('the meeting lobby forms follow the contract', () => {
  beforeEach(stubWebrtcPage);

  it('refuses a capacity outside the contract range and an empty meeting name', () => {
    renderLobby();
    fireEvent.change(screen.getByTestId('create-user-name'), { target: { value: 'Tess' } });
    fireEvent.change(screen.getByTestId('join-user-name'), { target: { value: 'Tess' } });
    fireEvent.change(screen.getByTestId('meeting-name'), { target: { value: '   ' } });
    fireEvent.change(screen.getByTestId('meeting-capacity'), { target: { value: '1' } });
    fireEvent.submit(screen.getByTestId('create-meeting-form'));
    expect(screen.getByText('meeting.form.required')).toBeInTheDocument();
    expect(screen.getByText('meeting.form.capacityRange')).toBeInTheDocument();
  });

  it("refuses more people than this server's rooms hold: a mesh's 10 while no SFU is known", () => {
    renderLobby();
    fireEvent.change(screen.getByTestId('create-user-name'), { target: { value: 'Tess' } });
    fireEvent.change(screen.getByTestId('meeting-capacity'), { target: { value: '11' } });
    fireEvent.submit(screen.getByTestId('create-meeting-form'));
    expect(screen.getByText('meeting.form.capacityRange')).toBeInTheDocument();
    fireEvent.change(screen.getByTestId('meeting-capacity'), { target: { value: '10' } });
    fireEvent.submit(screen.getByTestId('create-meeting-form'));
    expect(screen.queryByText('meeting.form.capacityRange')).not.toBeInTheDocument();
  });

  it('refuses a link that names no room, and an empty one as required', () => {
    renderLobby();
    fireEvent.change(screen.getByTestId('create-user-name'), { target: { value: 'Sam' } });
    fireEvent.change(screen.getByTestId('join-user-name'), { target: { value: 'Sam' } });
    fireEvent.change(screen.getByTestId('join-room-id'), { target: { value: 'https://mooz.example/courses' } });
    fireEvent.submit(screen.getByTestId('join-meeting-form'));
    expect(screen.getByText('meeting.join.invalidRoom')).toBeInTheDocument();
    fireEvent.change(screen.getByTestId('join-room-id'), { target: { value: '' } });
    fireEvent.submit(screen.getByTestId('join-meeting-form'));
    expect(screen.getAllByText('meeting.form.required')).toHaveLength(1);
  });
});
