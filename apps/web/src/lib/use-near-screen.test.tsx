import { act, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { useNearScreen } from './use-near-screen';

function Watched() {
  const [ref, near] = useNearScreen<HTMLDivElement>('200px');
  return <div ref={ref}>{near ? 'near' : 'far'}</div>;
}

describe('useNearScreen', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('turns near when the element comes within the margin, and stays near', () => {
    const observers: { callback: IntersectionObserverCallback; options?: IntersectionObserverInit; disconnected: boolean }[] = [];
    vi.stubGlobal(
      'IntersectionObserver',
      class {
        record: (typeof observers)[number];
        constructor(callback: IntersectionObserverCallback, options?: IntersectionObserverInit) {
          this.record = { callback, options, disconnected: false };
          observers.push(this.record);
        }
        observe() {}
        disconnect() {
          this.record.disconnected = true;
        }
      },
    );
    render(<Watched />);
    expect(screen.getByText('far')).toBeTruthy();
    expect(observers[0]!.options?.rootMargin).toBe('200px');
    const fire = (isIntersecting: boolean) =>
      act(() => observers[0]!.callback([{ isIntersecting } as IntersectionObserverEntry], {} as IntersectionObserver));
    fire(false);
    expect(screen.getByText('far')).toBeTruthy();
    fire(true);
    expect(screen.getByText('near')).toBeTruthy();
    expect(observers[0]!.disconnected).toBe(true);
    expect(observers).toHaveLength(1);
  });

  it('is near at once where the browser cannot tell', () => {
    vi.stubGlobal('IntersectionObserver', undefined);
    render(<Watched />);
    expect(screen.getByText('near')).toBeTruthy();
  });
});
