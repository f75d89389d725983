import { render, screen } from '@testing-library/react';
import { MantineProvider } from '@mantine/core';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { MemoryRouter } from 'react-router';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { layoutStateDefaults, useLayoutState } from '../../lib/layout-state';
import { BookmarksMenu } from './bookmarks-menu-lazy';

const python = { id: 'course:2', title: 'Data Science with Python', link: '/courses/2', icon: 'book' as const };

function renderMenu() {
  return render(
    <MantineProvider>
      <QueryClientProvider client={new QueryClient()}>
        <MemoryRouter>
          <BookmarksMenu orientation="vertical" />
        </MemoryRouter>
      </QueryClientProvider>
    </MantineProvider>,
  );
}

describe('the bookmarks group, loaded on demand', () => {
  // The module the group loads, transformed once here so the test waits on the loading, not on Vite.
  beforeAll(async () => {
    await import('./bookmarks-menu');
  });
  beforeEach(() => useLayoutState.setState(layoutStateDefaults));

  it('draws nothing for someone without bookmarks', () => {
    renderMenu();
    expect(screen.queryByTestId('bookmarks-menu')).toBeNull();
    expect(screen.queryAllByRole('link')).toHaveLength(0);
  });

  it('loads and shows the bookmarks once there are some', async () => {
    useLayoutState.setState({ bookmarks: [{ ...python, isBookmarked: true }] });
    renderMenu();
    expect(await screen.findByTestId('bookmarks-menu')).toBeTruthy();
    expect(screen.getByRole('link', { name: /Data Science with Python/ }).getAttribute('href')).toBe('/courses/2');
  });
});
