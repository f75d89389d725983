import { fireEvent, render, screen } from '@testing-library/react';
import { MantineProvider } from '@mantine/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Hint } from './hint';

function renderHint() {
  render(
    <MantineProvider>
      <Hint label="Dashboard" position="right">
        <a href="/dashboard" aria-label="Dashboard" data-testid="target">
          D
        </a>
      </Hint>
    </MantineProvider>,
  );
  return screen.getByTestId('target');
}

// jsdom has no PointerEvent, so an event's pointerType would be lost: a minimal one that keeps it.
const jsdomPointerEvent = window.PointerEvent;
beforeAll(() => {
  window.PointerEvent = class extends MouseEvent {
    readonly pointerType: string;
    constructor(type: string, init: PointerEventInit = {}) {
      super(type, init);
      this.pointerType = init.pointerType ?? '';
    }
  } as typeof PointerEvent;
});
afterAll(() => {
  window.PointerEvent = jsdomPointerEvent;
});

describe('a hint', () => {
  it('draws the element alone, without a tooltip, until a pointer reaches it', () => {
    renderHint();
    expect(screen.getByTestId('target')).toBeInTheDocument();
    expect(screen.queryByRole('tooltip')).not.toBeInTheDocument();
  });

  it('shows its label beside the element while a mouse is over it, and hides it when the mouse leaves', () => {
    const target = renderHint();
    fireEvent.pointerEnter(target, { pointerType: 'mouse' });
    const hint = screen.getByRole('tooltip');
    expect(hint).toHaveTextContent('Dashboard');
    expect(hint.dataset.position).toBe('right');
    // The element is the same one, not drawn anew: a click on it now is not lost.
    expect(screen.getByTestId('target')).toBe(target);
    fireEvent.pointerLeave(target, { pointerType: 'mouse' });
    expect(screen.queryByRole('tooltip')).not.toBeInTheDocument();
    expect(screen.getByTestId('target')).toBe(target);
  });

  it('opens nothing for a touch, as the hover tooltip it stands for does not', async () => {
    fireEvent.pointerEnter(renderHint(), { pointerType: 'touch' });
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(screen.queryByRole('tooltip')).not.toBeInTheDocument();
  });
});
