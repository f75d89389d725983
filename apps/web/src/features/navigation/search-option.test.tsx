import { fireEvent, render, screen } from '@testing-library/react';
import { MantineProvider } from '@mantine/core';
import { describe, expect, it, vi } from 'vitest';
import { SearchOption } from './search-option';
import type { SearchEntry } from './search-list';

const course: SearchEntry = {
  id: 'course:2',
  kind: 'course',
  title: 'Data Science with Python',
  subtitle: 'Tara Teacher',
  link: '/courses/2',
  icon: 'book',
  highlights: { title: [[18, 24]], subtitle: [] },
  bookmarkId: 'course:2',
};

function renderOption(entry: SearchEntry, props: Partial<Parameters<typeof SearchOption>[0]> = {}) {
  const handlers = { onActivate: vi.fn(), onOpen: vi.fn(), onStar: vi.fn() };
  render(
    <MantineProvider>
      <div role="listbox" aria-label="results">
        <SearchOption id="o-1" index={0} entry={entry} active={false} starred={false} {...handlers} {...props} />
      </div>
    </MantineProvider>,
  );
  return handlers;
}

describe('a search result in the list', () => {
  it('is an option whose matched text is marked', () => {
    renderOption(course, { active: true });
    const option = screen.getByRole('option', { name: /Data Science with Python/ });
    expect(option).toHaveAttribute('aria-selected', 'true');
    expect(option.querySelector('mark')).toHaveTextContent('Python');
  });

  it('stars without opening, and says when it is starred', () => {
    const handlers = renderOption(course, { starred: true });
    fireEvent.click(screen.getByTestId('search-star'));
    expect(handlers.onStar).toHaveBeenCalledOnce();
    expect(handlers.onOpen).not.toHaveBeenCalled();
    expect(screen.getByRole('option')).toHaveTextContent('bookmarks.starred');
    // The star is for the pointer only: an option holds no control of its own.
    expect(screen.getByTestId('search-star')).toHaveAttribute('aria-hidden', 'true');
  });

  it('has no star when it cannot be bookmarked, and opens on a click', () => {
    const handlers = renderOption({ ...course, id: 'session:4', kind: 'session', bookmarkId: undefined });
    expect(screen.queryByTestId('search-star')).toBeNull();
    fireEvent.click(screen.getByRole('option'));
    expect(handlers.onOpen).toHaveBeenCalledOnce();
  });
});
