// The search field keeps the last query, selected so that the first key replaces it; once something is
// typed, a later focus of the field (a focus trap's, a click back into it) must not select it, or the
// next key would replace what was typed ("ython" for "python").
import { fireEvent, render, screen } from '@testing-library/react';
import { MantineProvider } from '@mantine/core';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { MemoryRouter } from 'react-router';
import { beforeEach, describe, expect, it } from 'vitest';
import { layoutStateDefaults, useLayoutState } from '../../lib/layout-state';
import { SearchDialog } from './search-dialog';

function renderDialog() {
  render(
    <MantineProvider env="test">
      <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
        <MemoryRouter>
          <SearchDialog opened onClose={() => undefined} />
        </MemoryRouter>
      </QueryClientProvider>
    </MantineProvider>,
  );
  return screen.getByTestId('search-input') as HTMLInputElement;
}

const selected = (field: HTMLInputElement) => field.value.slice(field.selectionStart ?? 0, field.selectionEnd ?? 0);

describe('the search field', () => {
  beforeEach(() => useLayoutState.setState({ ...layoutStateDefaults, query: 'java', typedSinceOpen: false }));

  it('selects the last query when focused, so the first key replaces it', () => {
    const field = renderDialog();
    field.blur();
    field.focus();
    expect(field.value).toBe('java');
    expect(selected(field)).toBe('java');
  });

  it('leaves what was typed unselected when focused again', () => {
    const field = renderDialog();
    field.focus();
    fireEvent.change(field, { target: { value: 'p' } });
    field.setSelectionRange(1, 1);
    field.blur();
    field.focus();
    expect(field.value).toBe('p');
    expect(selected(field)).toBe('');
    expect(useLayoutState.getState().typedSinceOpen).toBe(true);
  });

  it('leaves what was typed before the field was there unselected', () => {
    useLayoutState.setState({ query: 'py', typedSinceOpen: true });
    const field = renderDialog();
    field.setSelectionRange(2, 2);
    field.blur();
    field.focus();
    expect(selected(field)).toBe('');
  });
});
