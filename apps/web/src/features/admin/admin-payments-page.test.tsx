import { render, screen } from '@testing-library/react';
import { MantineProvider } from '@mantine/core';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { MemoryRouter } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { AdminPayment, PaymentStatus } from '@mooz/contract/admin';
import { AdminPaymentsPage } from './admin-payments-page';

// Without i18n set up, t() answers its keys, so the texts are checked by key.
const payment = (status: PaymentStatus, over: Partial<AdminPayment> = {}): AdminPayment => ({
  id: `00000000-0000-4000-8000-00000000000${status.length}`,
  student: { id: 1, name: `Student ${status}`, email: `${status}@example.test` },
  course: { id: 2, name: 'Pottery' },
  batch: { id: 3, kind: 'weekdays', start_date: '2030-01-07', end_date: '2030-02-01', time: '09:00', saturday_time: null, sunday_time: null },
  status,
  amount: 120_000,
  currency: 'INR',
  order_id: `order_${status}`,
  payment_id: status === 'paid' || status === 'refunded' ? `pay_${status}` : null,
  created_at: '2030-01-01T10:00:00.000Z',
  activated_at: status === 'paid' || status === 'refunded' ? '2030-01-01T10:05:00.000Z' : null,
  refunded_at: status === 'refunded' ? '2030-01-02T10:00:00.000Z' : null,
  failed_at: null,
  failure_reason: null,
  ...over,
});

const items = [
  payment('created'),
  payment('failed', { failed_at: '2030-01-01T10:03:00.000Z', failure_reason: 'Payment declined by the bank' }),
  payment('abandoned'),
  payment('paid'),
  payment('refunded'),
];

beforeEach(() => {
  localStorage.setItem('accessToken', 'token');
  vi.stubGlobal('fetch', async () => new Response(JSON.stringify({ data: { total: items.length, items } }), { status: 200 }));
});
afterEach(() => vi.unstubAllGlobals());

describe('the admin payments page', () => {
  it('shows every status, the provider’s reason of a failed payment, and a refund only for a paid one', async () => {
    render(
      <QueryClientProvider client={new QueryClient()}>
        <MantineProvider>
          <MemoryRouter>
            <AdminPaymentsPage />
          </MemoryRouter>
        </MantineProvider>
      </QueryClientProvider>,
    );
    for (const status of ['created', 'failed', 'abandoned', 'paid', 'refunded']) {
      expect((await screen.findAllByTestId(`status-${status}`))[0]).toHaveTextContent(`admin.paymentStatus.${status}`);
    }
    const reasons = screen.getAllByTestId('payment-failure-reason');
    expect(reasons.map((reason) => reason.textContent)).toEqual(['Payment declined by the bank']);
    expect(screen.getAllByText('admin.payments.failedOn').length).toBeGreaterThan(0);
    const refunds = screen.getAllByTestId('refund-payment');
    expect(refunds).toHaveLength(1);
    expect(refunds[0]!).toHaveAttribute('aria-label', 'admin.payments.refundWhat');
  });
});
