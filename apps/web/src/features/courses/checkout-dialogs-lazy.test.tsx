import { render, screen, waitFor } from '@testing-library/react';
import { MantineProvider } from '@mantine/core';
import { describe, expect, it, vi } from 'vitest';
import { LazyPaymentDeclined } from './checkout-dialogs-lazy';
import type { DeclinedPayment } from './use-enrollment';

// Without i18n set up, t() answers its keys, so the texts are checked by key.
const shown = (declined: DeclinedPayment | null) => (
  <MantineProvider>
    <LazyPaymentDeclined declined={declined} />
  </MantineProvider>
);

describe('the checkout dialogs, loaded when first shown', () => {
  it('draws nothing while there is nothing to show', () => {
    render(shown(null));
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(screen.queryByText('enroll.declined.title')).not.toBeInTheDocument();
  });

  it('loads and opens the declined payment once a payment is declined, its buttons working, and closes it after', async () => {
    const declined = { reason: 'Card declined by the issuer', retry: vi.fn(), dismiss: vi.fn() };
    const { rerender } = render(shown(null));
    rerender(shown(declined));
    // The first dynamic import is transformed on demand under Vitest: give it time.
    expect(await screen.findByText('enroll.declined.title', undefined, { timeout: 15_000 })).toBeInTheDocument();
    expect(screen.getByTestId('payment-declined-reason')).toBeInTheDocument();
    screen.getByTestId('payment-retry').click();
    expect(declined.retry).toHaveBeenCalledOnce();
    rerender(shown(null));
    await waitFor(() => expect(screen.queryByTestId('payment-retry')).not.toBeInTheDocument());
  });
});
