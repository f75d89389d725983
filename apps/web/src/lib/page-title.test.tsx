import { render } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { onPageTitle, shownPageTitle, usePageTitle } from './page-title';

function Named({ title }: { title?: string }) {
  usePageTitle(title);
  return null;
}

describe('page title', () => {
  it('a page that leaves after a newer one named itself does not clear the newer title', () => {
    const older = render(<Named title="Calligraphy" />);
    const newer = render(<Named title="Italic hand" />);
    older.unmount();
    expect(shownPageTitle()).toBe('Italic hand');
    newer.unmount();
    expect(shownPageTitle()).toBeUndefined();
  });

  it('tells its listeners as soon as a page names itself, and a page still loading names nothing', () => {
    const heard = vi.fn();
    const stop = onPageTitle(heard);
    const page = render(<Named />);
    expect(heard).not.toHaveBeenCalled();
    page.rerender(<Named title="Calligraphy" />);
    expect(heard).toHaveBeenCalledTimes(1);
    expect(shownPageTitle()).toBe('Calligraphy');
    page.unmount();
    stop();
  });
});
