// The meeting's toasts are bottom-left, where the first control is: while the controls bar is shown,
// the page's root says how much higher bottom toasts must stand (app/toaster.tsx reads it).
import { render } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { TOAST_LIFT_PROPERTY } from '../../../lib/toasts';
import { useToastsAbove } from './meeting-toasts';

function Room({ bar }: { bar: boolean }) {
  const toastsAbove = useToastsAbove();
  return bar ? <footer ref={toastsAbove} /> : <p>lobby</p>;
}

const lift = () => document.documentElement.style.getPropertyValue(TOAST_LIFT_PROPERTY);

describe('useToastsAbove', () => {
  it('lifts bottom toasts above the bar and the name caption of the tile over it while the bar is shown, and not after', () => {
    // jsdom lays nothing out: give the bar a height.
    const own = Object.getOwnPropertyDescriptor(HTMLElement.prototype, 'offsetHeight')!;
    Object.defineProperty(HTMLElement.prototype, 'offsetHeight', { configurable: true, get: () => 72 });
    try {
      const { rerender, unmount } = render(<Room bar={false} />);
      expect(lift()).toBe('');
      rerender(<Room bar />);
      expect(lift()).toBe('116px');
      rerender(<Room bar={false} />);
      expect(lift()).toBe('');
      rerender(<Room bar />);
      unmount();
      expect(lift()).toBe('');
    } finally {
      Object.defineProperty(HTMLElement.prototype, 'offsetHeight', own);
    }
  });
});
