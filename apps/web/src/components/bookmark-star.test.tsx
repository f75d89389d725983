import { act, fireEvent, render, screen } from '@testing-library/react';
import { MantineProvider } from '@mantine/core';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { BookmarksData } from '@mooz/contract/navigation';
import { layoutStateDefaults, useLayoutState } from '../lib/layout-state';
import { BookmarkStar } from './bookmark-star';

const call = vi.hoisted(() => vi.fn());
vi.mock('../lib/api', async (original) => ({ ...(await original<typeof import('../lib/api')>()), call }));
const toastError = vi.hoisted(() => vi.fn());
vi.mock('../lib/toasts', async (original) => {
  const actual = await original<typeof import('../lib/toasts')>();
  return { ...actual, notify: { ...actual.notify, error: toastError } };
});

const python = { id: 'course:2', title: 'Data Science with Python', link: '/courses/2', icon: 'book' as const };
const lists = (starred: boolean): BookmarksData => ({
  suggestions: [{ ...python, isBookmarked: starred }],
  bookmarks: starred ? [{ ...python, isBookmarked: true }] : [],
});

function renderStar() {
  render(
    <MantineProvider>
      <QueryClientProvider client={new QueryClient()}>
        <BookmarkStar id="course:2" title="Data Science with Python" />
      </QueryClientProvider>
    </MantineProvider>,
  );
  return screen.getByTestId('bookmark-star');
}

describe('the star on a course page', () => {
  beforeEach(() => {
    call.mockReset();
    toastError.mockReset();
    useLayoutState.setState({ ...layoutStateDefaults });
    useLayoutState.getState().bookmarksLoaded(lists(false));
  });

  it('turns on only once the server has confirmed', async () => {
    let answer: (value: unknown) => void = () => {};
    call.mockReturnValue(new Promise((resolve) => (answer = resolve)));
    const star = renderStar();
    expect(star).toHaveAttribute('aria-pressed', 'false');
    await act(async () => fireEvent.click(star));
    expect(call).toHaveBeenCalledWith(expect.objectContaining({ path: '/api/bookmarks/update' }), {
      body: { id: 'course:2' },
    });
    expect(star).toHaveAttribute('aria-pressed', 'false');
    await act(async () => answer({ data: lists(true) }));
    expect(star).toHaveAttribute('aria-pressed', 'true');
    expect(useLayoutState.getState().bookmarks.map((item) => item.id)).toEqual(['course:2']);
  });

  it('stays as it was and says so when the server refuses', async () => {
    call.mockRejectedValue(new Error('offline'));
    const star = renderStar();
    await act(async () => fireEvent.click(star));
    expect(star).toHaveAttribute('aria-pressed', 'false');
    expect(toastError).toHaveBeenCalledOnce();
    expect(useLayoutState.getState().bookmarks).toEqual([]);
  });
});
