import { act, renderHook, waitFor } from '@testing-library/react';
import type { ReactNode } from 'react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Course } from '@mooz/contract/courses';
import { useAuthStore } from '../../lib/auth-store';
import { notify } from '../../lib/toasts';
import { checkoutPrefill, checkoutThemeColor, razorpayScriptUrl } from './checkout';
import { useEnrollment } from './use-enrollment';

const course: Course = {
  id: 7,
  name: 'Data Science with Python',
  description: 'Clean, explore and model real data.',
  price: 1_299_900,
  currency: 'INR',
  teacher: { id: 2, name: 'Tara Teacher' },
  skills: [],
  duration_weeks: 10,
  batch_start_dates: ['2031-01-06'],
  weekday_times: ['09:00'],
  weekend_times: [],
  image_url: null,
  published: true,
  enrolled: false,
  time_zone: 'Asia/Kolkata',
  batches: [],
};
const choice = { course_id: 7, batch: 'weekdays' as const, start_date: '2031-01-06', end_date: '2031-03-16', time: '09:00' };
const order = { amount: 1_299_900, currency: 'INR', order_id: 'order_Abc', subscription_id: 'sub-1', key_id: 'rzp_test_key' };
const paid = { razorpay_order_id: 'order_Abc', razorpay_payment_id: 'pay_1', razorpay_signature: 'f00d' };
/** The signed-in buyer as the browser keeps them (login, then the profile). */
const buyer = { id: 1, email: 'priya@example.in', first_name: 'Priya', last_name: 'Sharma', phone: '+91 98765-43210', user_type: 'student' };

type Reply = { status: number; body: unknown };
let replies: Record<string, Reply>;
let calls: { url: string; method: string; body: unknown }[];

beforeEach(() => {
  localStorage.setItem('accessToken', 'token');
  useAuthStore.setState({ user: { ...buyer } });
  calls = [];
  replies = {
    'POST /api/payments/create_order/': { status: 200, body: { data: order } },
    'GET /api/payments/config/': { status: 200, body: { data: { provider: 'sandbox', key_id: 'rzp_test_key' } } },
    'POST /api/payments/verify_payment/': { status: 200, body: { data: { status: 'active' }, message: 'Payment verified successfully!' } },
    'GET /api/auth/trial-status/': { status: 200, body: { data: { is_trial: false, has_purchased: true } } },
    'GET /api/auth/profile/': { status: 200, body: { data: { id: 1, has_purchased: true } } },
  };
  vi.stubGlobal('fetch', async (url: string, init: RequestInit = {}) => {
    const method = init.method ?? 'GET';
    calls.push({ url, method, body: init.body ? JSON.parse(String(init.body)) : undefined });
    const reply = replies[`${method} ${url}`] ?? { status: 404, body: { message: 'Not found' } };
    return new Response(JSON.stringify(reply.body), { status: reply.status });
  });
  vi.spyOn(notify, 'success');
  vi.spyOn(notify, 'error');
  vi.spyOn(notify, 'info');
});

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
  delete window.Razorpay;
  useAuthStore.setState({ user: null });
});

type RazorpayOptions = Record<string, unknown> & { handler(result: typeof paid): void; prefill: Record<string, string> };
/** A stand-in for Razorpay's checkout script: records each checkout and its payment.failed listener. */
function fakeRazorpay() {
  replies['GET /api/payments/config/'] = { status: 200, body: { data: { provider: 'razorpay', key_id: 'rzp_live_key' } } };
  const opened: { options: RazorpayOptions; fail(description?: string): void; opens: number }[] = [];
  window.Razorpay = class {
    private failed: (response: { error?: { description?: string } }) => void = () => {};
    opens = 0;
    constructor(readonly options: RazorpayOptions) {
      opened.push(this);
    }
    on(_event: string, listener: (response: { error?: { description?: string } }) => void) {
      this.failed = listener;
    }
    fail(description?: string) {
      this.failed({ error: { description } });
    }
    open() {
      this.opens++;
    }
  } as never;
  return opened;
}

function setup() {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  const invalidate = vi.spyOn(client, 'invalidateQueries');
  const wrapper = ({ children }: { children: ReactNode }) => <QueryClientProvider client={client}>{children}</QueryClientProvider>;
  return { ...renderHook(() => useEnrollment(), { wrapper }), invalidate };
}

const called = (method: string, url: string) => calls.filter((c) => c.method === method && c.url === url);

describe('enrollment', () => {
  it('opens the sandbox checkout with the order, the course and a blue theme, without loading the provider script', async () => {
    const { result } = setup();
    await act(async () => {
      expect(await result.current.enroll(course, choice)).toEqual({ ok: true });
    });
    expect(called('POST', '/api/payments/create_order/')[0]!.body).toEqual(choice);
    expect(result.current.sandbox?.options).toEqual({
      key: 'rzp_test_key',
      amount: 1_299_900,
      currency: 'INR',
      name: course.name,
      description: course.description,
      order_id: 'order_Abc',
      prefill: { name: 'Priya Sharma', email: 'priya@example.in', contact: '+919876543210' },
      theme: { color: checkoutThemeColor },
    });
    expect(result.current.stage).toBe('checkout');
    expect(document.querySelector(`script[src="${razorpayScriptUrl}"]`)).toBeNull();
  });

  it('verifies a paid checkout, toasts success and re-fetches trial status, courses and profile', async () => {
    const { result, invalidate } = setup();
    await act(async () => void (await result.current.enroll(course, choice)));
    act(() => result.current.sandbox!.callbacks.onPaid(paid));
    await waitFor(() => expect(notify.success).toHaveBeenCalledWith('Payment verified successfully!'));
    expect(called('POST', '/api/payments/verify_payment/')[0]!.body).toEqual({ ...paid, subscription_id: 'sub-1' });
    await waitFor(() => expect(called('GET', '/api/auth/profile/')).toHaveLength(1));
    expect(called('GET', '/api/auth/trial-status/')).toHaveLength(1);
    const keys = invalidate.mock.calls.map(([filters]) => filters?.queryKey);
    expect(keys).toEqual(expect.arrayContaining([['courses'], ['my-courses'], ['sessions']]));
    await waitFor(() => expect(result.current.stage).toBe('idle'));
    expect(result.current.sandbox).toBeNull();
  });

  it("toasts 'Payment verification failed' when the server refuses the payment", async () => {
    replies['POST /api/payments/verify_payment/'] = { status: 400, body: { message: 'Payment verification failed' } };
    const { result } = setup();
    await act(async () => void (await result.current.enroll(course, choice)));
    act(() => result.current.sandbox!.callbacks.onPaid(paid));
    await waitFor(() => expect(notify.error).toHaveBeenCalledWith('Payment verification failed'));
    expect(notify.success).not.toHaveBeenCalled();
    expect(called('GET', '/api/auth/profile/')).toHaveLength(0);
  });

  it("reports a failed checkout as a declined payment, not as 'Payment verification failed', and verifies nothing", async () => {
    const { result } = setup();
    await act(async () => void (await result.current.enroll(course, choice)));
    act(() => result.current.sandbox!.callbacks.onFailed());
    expect(notify.error).not.toHaveBeenCalled();
    expect(result.current.declined).toMatchObject({ reason: undefined });
    expect(called('POST', '/api/payments/verify_payment/')).toHaveLength(0);
    expect(result.current.sandbox).toBeNull();
    expect(result.current.stage).toBe('idle');
  });

  it('opens the same checkout again from a declined payment, with no new order, and pays from there', async () => {
    const { result } = setup();
    await act(async () => void (await result.current.enroll(course, choice)));
    const first = result.current.sandbox!.options;
    act(() => result.current.sandbox!.callbacks.onFailed());
    await act(async () => result.current.declined!.retry());
    expect(result.current.declined).toBeNull();
    expect(result.current.stage).toBe('checkout');
    expect(result.current.sandbox?.options).toEqual(first);
    expect(called('POST', '/api/payments/create_order/')).toHaveLength(1);
    act(() => result.current.sandbox!.callbacks.onPaid(paid));
    await waitFor(() => expect(notify.success).toHaveBeenCalledWith('Payment verified successfully!'));
    expect(notify.error).not.toHaveBeenCalled();
  });

  it('lets the buyer dismiss a declined payment', async () => {
    const { result } = setup();
    await act(async () => void (await result.current.enroll(course, choice)));
    act(() => result.current.sandbox!.callbacks.onFailed());
    act(() => result.current.declined!.dismiss());
    expect(result.current.declined).toBeNull();
    expect(result.current.sandbox).toBeNull();
    expect(result.current.stage).toBe('idle');
  });

  it("reports Razorpay's payment.failed as declined with the provider's words, and Try again opens its checkout again", async () => {
    const opened = fakeRazorpay();
    const { result } = setup();
    await act(async () => void (await result.current.enroll(course, choice)));
    act(() => opened[0]!.fail('Your payment was declined by the bank.'));
    expect(result.current.declined?.reason).toBe('Your payment was declined by the bank.');
    expect(notify.error).not.toHaveBeenCalledWith('Payment verification failed');
    await act(async () => result.current.declined!.retry());
    expect(opened).toHaveLength(2);
    expect(opened[1]!.opens).toBe(1);
    expect(opened[1]!.options).toMatchObject({ order_id: 'order_Abc', prefill: opened[0]!.options.prefill });
    expect(result.current.declined).toBeNull();
  });

  it("says 'Create order endpoint is undefined' when the server has no create-order endpoint", async () => {
    delete replies['POST /api/payments/create_order/'];
    const { result } = setup();
    await act(async () => void (await result.current.enroll(course, choice)));
    expect(notify.error).toHaveBeenCalledWith('Create order endpoint is undefined');
    expect(result.current.sandbox).toBeNull();
  });

  it("toasts the server's message for a refused order and hands back its field errors", async () => {
    replies['POST /api/payments/create_order/'] = { status: 400, body: { message: 'Some fields are not valid', errors: { time: ['Choose one'] } } };
    const { result } = setup();
    let outcome: unknown;
    await act(async () => void (outcome = await result.current.enroll(course, choice)));
    expect(outcome).toEqual({ ok: false, errors: { time: ['Choose one'] } });
    expect(notify.error).toHaveBeenCalledWith('Some fields are not valid');
  });

  it("falls back to 'Failed to enroll' when the order fails without a server message", async () => {
    replies['POST /api/payments/create_order/'] = { status: 500, body: null };
    const { result } = setup();
    await act(async () => void (await result.current.enroll(course, choice)));
    expect(notify.error).toHaveBeenCalledWith('Failed to enroll');
  });

  it("opens Razorpay's checkout when the provider is razorpay, and verifies from its handler", async () => {
    const opened = fakeRazorpay();
    const { result } = setup();
    await act(async () => void (await result.current.enroll(course, choice)));
    expect(result.current.sandbox).toBeNull();
    expect(opened[0]!.options).toMatchObject({ key: 'rzp_test_key', order_id: 'order_Abc', amount: 1_299_900, theme: { color: checkoutThemeColor } });
    act(() => opened[0]!.options.handler(paid));
    await waitFor(() => expect(notify.success).toHaveBeenCalledWith('Payment verified successfully!'));
  });

  it("prefills Razorpay's checkout with the buyer's own details, editable (nothing read-only), and omits a phone they never gave", async () => {
    useAuthStore.setState({ user: { ...buyer, phone: null } });
    const opened = fakeRazorpay();
    const { result } = setup();
    await act(async () => void (await result.current.enroll(course, choice)));
    expect(opened[0]!.options.prefill).toEqual({ name: 'Priya Sharma', email: 'priya@example.in' });
    expect(opened[0]!.options).not.toHaveProperty('readonly');
  });
});

describe('checkout prefill', () => {
  it("takes the stored user's name, email and phone, the phone reduced to what Razorpay's contact field takes", () => {
    expect(checkoutPrefill(buyer)).toEqual({ name: 'Priya Sharma', email: 'priya@example.in', contact: '+919876543210' });
    expect(checkoutPrefill({ ...buyer, phone: '(022) 2345 6789' }).contact).toBe('02223456789');
  });

  it('invents nothing: no phone stays empty, and no user gives empty details', () => {
    expect(checkoutPrefill({ ...buyer, phone: null })).toEqual({ name: 'Priya Sharma', email: 'priya@example.in', contact: '' });
    expect(checkoutPrefill({ email: 'solo@example.in', first_name: 'Solo' })).toEqual({ name: 'Solo', email: 'solo@example.in', contact: '' });
    expect(checkoutPrefill(null)).toEqual({ name: '', email: '', contact: '' });
  });
});
