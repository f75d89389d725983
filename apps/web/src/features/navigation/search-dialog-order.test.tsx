// "python" listed a course's sessions first and the course last. The palette groups
// courses first, whatever order the server's results come in, and Enter opens the first: the course.
import { fireEvent, render, screen, within } from '@testing-library/react';
import { MantineProvider } from '@mantine/core';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { storageKeys } from '@mooz/contract/config';
import type { SearchResult } from '@mooz/contract/navigation';
import { layoutStateDefaults, useLayoutState } from '../../lib/layout-state';
import { SearchDialog } from './search-dialog';

const json = (body: unknown) => new Response(JSON.stringify(body), { status: 200, headers: { 'Content-Type': 'application/json' } });
const result = (kind: SearchResult['kind'], id: number, title: string, link: string): SearchResult => ({
  id: kind === 'course' ? `course:${id}` : `${kind}:${id}`,
  kind,
  title,
  subtitle: null,
  link,
  icon: kind === 'course' ? 'book' : 'calendar',
  rank: 1,
  highlights: { title: [], subtitle: [] },
  isBookmarked: false,
});

function Where() {
  return <p data-testid="where">{useLocation().pathname}</p>;
}

beforeEach(() => {
  // jsdom lays nothing out: the list scrolls its active entry into view.
  Element.prototype.scrollIntoView = () => undefined;
  localStorage.setItem(storageKeys.access, 'token');
  useLayoutState.setState({ ...layoutStateDefaults, query: '', typedSinceOpen: false });
  vi.stubGlobal(
    'fetch',
    vi.fn(async () =>
      json({
        data: {
          query: 'python',
          total: 3,
          results: [
            result('session', 1, 'Python lab 1', '/sessions?session=1'),
            result('session', 2, 'Python lab 2', '/sessions?session=2'),
            result('course', 7, 'Python', '/courses/7'),
          ],
        },
      }),
    ),
  );
});
afterEach(() => vi.unstubAllGlobals());

describe('the search palette', () => {
  it('lists courses first and opens the best course with Enter', async () => {
    render(
      <MantineProvider env="test">
        <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
          <MemoryRouter>
            <SearchDialog opened onClose={() => undefined} />
            <Routes>
              <Route path="*" element={<Where />} />
            </Routes>
          </MemoryRouter>
        </QueryClientProvider>
      </MantineProvider>,
    );
    const field = screen.getByTestId('search-input');
    fireEvent.change(field, { target: { value: 'python' } });
    const courses = await screen.findByTestId('search-group-course', undefined, { timeout: 3000 });
    expect(within(courses).getByRole('option', { name: /Python/ })).toBeInTheDocument();
    const groups = screen.getAllByRole('group').map((group) => group.getAttribute('data-testid'));
    expect(groups.indexOf('search-group-course')).toBeLessThan(groups.indexOf('search-group-session'));
    fireEvent.keyDown(field, { key: 'Enter' });
    expect(screen.getByTestId('where')).toHaveTextContent('/courses/7');
  });
});
