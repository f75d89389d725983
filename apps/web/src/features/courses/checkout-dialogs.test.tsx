import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import { MantineProvider } from '@mantine/core';
import type { ReactNode } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { checkoutOptions, checkoutPrefill } from './checkout';
import { PaymentDeclined } from './payment-declined';
import { SandboxCheckout } from './sandbox-checkout';

// Without i18n set up, t() answers its keys, so the texts are checked by key.
const wrap = (ui: ReactNode) => render(<MantineProvider>{ui}</MantineProvider>);

const order = { amount: 1_299_900, currency: 'INR', order_id: 'order_Abc', subscription_id: 'sub-1', key_id: 'rzp_test_key' };
const course = { name: 'Data Science with Python', description: 'Clean, explore and model real data.' };
const callbacks = () => ({ onPaid: vi.fn(), onFailed: vi.fn(), onClosed: vi.fn() });

describe('the sandbox checkout', () => {
  it("starts with the buyer's own email and phone, and lets them change both", () => {
    const prefill = checkoutPrefill({ email: 'priya@example.in', first_name: 'Priya', last_name: 'Sharma', phone: '9876543210' });
    wrap(<SandboxCheckout checkout={{ options: checkoutOptions(course, order, prefill), callbacks: callbacks() }} />);
    const email = screen.getByTestId('sandbox-email');
    const phone = screen.getByTestId('sandbox-phone');
    expect(email).toHaveValue('priya@example.in');
    expect(phone).toHaveValue('9876543210');
    expect(email).not.toHaveAttribute('readonly');
    expect(phone).not.toHaveAttribute('readonly');
    fireEvent.change(email, { target: { value: 'priya.s@example.in' } });
    fireEvent.change(phone, { target: { value: '+91 90000 00000' } });
    expect(email).toHaveValue('priya.s@example.in');
    expect(phone).toHaveValue('+91 90000 00000');
  });

  it('leaves the phone empty for a buyer who gave none', () => {
    const prefill = checkoutPrefill({ email: 'sam@example.in', first_name: 'Sam', last_name: 'Student', phone: null });
    wrap(<SandboxCheckout checkout={{ options: checkoutOptions(course, order, prefill), callbacks: callbacks() }} />);
    expect(screen.getByTestId('sandbox-phone')).toHaveValue('');
    expect(screen.queryByDisplayValue('9999999999')).toBeNull();
    expect(screen.queryByDisplayValue('learner@example.com')).toBeNull();
  });

  it("reports 'Simulate a failed payment' to the checkout's onFailed, and to the server as the provider's webhook would", async () => {
    localStorage.setItem('accessToken', 'token');
    const sent: { url: string; body: unknown }[] = [];
    vi.stubGlobal('fetch', async (url: string, init: RequestInit = {}) => {
      sent.push({ url, body: JSON.parse(String(init.body)) });
      return new Response(JSON.stringify({ data: null }), { status: 200 });
    });
    const handlers = callbacks();
    wrap(<SandboxCheckout checkout={{ options: checkoutOptions(course, order, checkoutPrefill(null)), callbacks: handlers }} />);
    fireEvent.click(screen.getByTestId('sandbox-fail'));
    expect(handlers.onFailed).toHaveBeenCalledOnce();
    expect(handlers.onPaid).not.toHaveBeenCalled();
    await waitFor(() => expect(sent).toEqual([{ url: '/api/payments/sandbox/fail/', body: { order_id: order.order_id } }]));
    vi.unstubAllGlobals();
  });
});

describe('a declined payment', () => {
  it('says the payment did not go through and nothing was charged, with the provider’s words, and offers to try again', () => {
    const declined = { reason: 'Your payment was declined by the bank.', retry: vi.fn(), dismiss: vi.fn() };
    wrap(<PaymentDeclined declined={declined} />);
    expect(screen.getByText('enroll.declined.title')).toBeInTheDocument();
    expect(screen.getByText('enroll.declined.body')).toBeInTheDocument();
    expect(screen.getByTestId('payment-declined-reason')).toHaveTextContent('enroll.declined.reason');
    expect(screen.queryByText('Payment verification failed')).toBeNull();
    fireEvent.click(screen.getByTestId('payment-retry'));
    expect(declined.retry).toHaveBeenCalledOnce();
    fireEvent.click(screen.getByTestId('payment-declined-dismiss'));
    expect(declined.dismiss).toHaveBeenCalledOnce();
  });

  it('shows nothing while no payment was declined', () => {
    wrap(<PaymentDeclined declined={null} />);
    expect(screen.queryByText('enroll.declined.title')).toBeNull();
  });
});
