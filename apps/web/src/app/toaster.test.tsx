import { act, render } from '@testing-library/react';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import toast, { useToasterStore } from 'react-hot-toast';
import { limits } from '@mooz/contract/limits';
import { loadToastLibrary, notify, TOAST_DROP_PROPERTY, toastDurations, useToastsBelow } from '../lib/toasts';
import { containerStyle, useToastLimit } from './toaster';

let visibleMessages: string[] = [];

function Probe({ max }: { max?: number }) {
  useToastLimit(max);
  const { toasts } = useToasterStore();
  visibleMessages = toasts.filter((t) => t.visible).map((t) => String(t.message));
  return null;
}

describe('toasts', () => {
  // notify calls react-hot-toast at once when it is loaded (before, as soon as it arrives).
  beforeAll(async () => {
    await loadToastLibrary();
  });

  afterEach(() => {
    act(() => toast.remove());
  });

  it('uses the specification durations', () => {
    expect(toastDurations).toEqual({ success: 2000, error: 4000, blank: 4000, loading: Infinity });
  });

  it(`keeps at most ${limits.toastMaxVisible} toasts visible, dismissing the oldest`, () => {
    render(<Probe />);
    act(() => {
      for (let i = 1; i <= 25; i++) notify.info(`toast ${i}`);
    });
    expect(visibleMessages).toHaveLength(limits.toastMaxVisible);
    expect(visibleMessages).toContain('toast 25');
    expect(visibleMessages).toContain('toast 6');
    expect(visibleMessages).not.toContain('toast 5');
  });

  it('dismisses the oldest beyond a smaller limit too', () => {
    render(<Probe max={3} />);
    act(() => {
      for (const n of [1, 2, 3, 4, 5]) notify.success(`toast ${n}`);
    });
    expect(visibleMessages.sort()).toEqual(['toast 3', 'toast 4', 'toast 5']);
  });
});

describe('toasts at the top', () => {
  it('show below the header, not over its account menu', () => {
    function Header() {
      useToastsBelow('4rem');
      return null;
    }
    const { unmount } = render(<Header />);
    expect(document.documentElement.style.getPropertyValue(TOAST_DROP_PROPERTY)).toBe('4rem');
    expect(containerStyle.top).toBe(`calc(16px + var(${TOAST_DROP_PROPERTY}, 0px))`);
    unmount();
    expect(document.documentElement.style.getPropertyValue(TOAST_DROP_PROPERTY)).toBe('');
  });
});
