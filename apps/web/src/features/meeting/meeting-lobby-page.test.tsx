import { fireEvent, render, screen } from '@testing-library/react';
import { MantineProvider } from '@mantine/core';
import { MemoryRouter } from 'react-router';
import { describe, expect, it } from 'vitest';
import { buildAbility } from '@mooz/contract/permissions';
import { AbilityContext } from '../../lib/ability';
import { MeetingLobbyPage } from './meeting-lobby-page';

// Without i18n set up, t() answers its keys, so the hints are checked by key.
function renderLobby() {
  const ability = buildAbility([{ action: 'create', subject: 'Meeting' }]);
  return render(
    <MantineProvider>
      <AbilityContext.Provider value={ability}>
        <MemoryRouter>
          <MeetingLobbyPage />
        </MemoryRouter>
      </AbilityContext.Provider>
    </MantineProvider>,
  );
}

describe('the meeting lobby forms follow the contract', () => {
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
