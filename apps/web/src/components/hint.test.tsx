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

  it('loads the tooltip when a mouse reaches the element and shows its label there', async () => {
    fireEvent.pointerEnter(renderHint(), { pointerType: 'mouse' });
    // The first dynamic import is transformed on demand under Vitest: give it time.
    expect(await screen.findByRole('tooltip', undefined, { timeout: 15_000 })).toHaveTextContent('Dashboard');
    expect(screen.getByTestId('target')).toBeInTheDocument();
  });

  it('opens nothing for a touch, as the hover tooltip it stands for does not', async () => {
    fireEvent.pointerEnter(renderHint(), { pointerType: 'touch' });
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(screen.queryByRole('tooltip')).not.toBeInTheDocument();
  });
});
