// Choosing "Hidden" for the top bar moves the gear from the bar to the floating tools: the
// drawer the user is working in stays open.
import { act, fireEvent, render, screen } from '@testing-library/react';
import { MantineProvider } from '@mantine/core';
import { describe, expect, it } from 'vitest';
import { useLayoutPreferences } from '../../lib/layout-preferences';
import { SettingsButton, SettingsDrawerHost } from './settings-panel';

/** The layout's two homes of the gear, as app-layout.tsx has them. */
function Frame() {
  const hidden = useLayoutPreferences((state) => state.navbarType === 'hidden');
  return (
    <>
      {hidden ? (
        <aside data-testid="floating">
          <SettingsButton />
        </aside>
      ) : (
        <header>
          <SettingsButton />
        </header>
      )}
      <SettingsDrawerHost />
    </>
  );
}

describe('the settings drawer', () => {
  it('stays open when the top bar it was opened from is hidden', async () => {
    render(
      <MantineProvider>
        <Frame />
      </MantineProvider>,
    );
    fireEvent.click(screen.getByTestId('settings-button'));
    expect(await screen.findByTestId('setting-navbar-type')).toBeInTheDocument();

    act(() => useLayoutPreferences.getState().set({ navbarType: 'hidden' }));

    expect(screen.getByTestId('floating')).toBeInTheDocument();
    expect(screen.getByTestId('setting-navbar-type')).toBeInTheDocument();
    act(() => useLayoutPreferences.getState().set({ navbarType: 'floating' }));
  });
});
