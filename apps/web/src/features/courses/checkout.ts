// The provider's checkout: its options (the key the server hands over, the order's amount and currency,
// the course name and description, the order id, the buyer's own contact details, a blue theme colour)
// and Razorpay's own script, loaded only when the server's provider is `razorpay`. The sandbox provider
// has a look-alike dialog instead.
import type { Course } from '@mooz/contract/courses';
import type { OrderData, PaymentResult } from '@mooz/contract/payments';
import type { StoredUser } from '../../lib/stored-auth';

export const razorpayScriptUrl = 'https://checkout.razorpay.com/v1/checkout.js';

/** Razorpay's blue, a step darker: white text reads on it at 5.5:1 (on Razorpay's #3399cc, 3.2:1). */
export const checkoutThemeColor = '#1f6f99';

/** The contact details the checkout starts with; an empty one is left for the buyer to fill in. */
export interface CheckoutPrefill {
  name: string;
  email: string;
  contact: string;
}

const text = (value: unknown) => (typeof value === 'string' ? value.trim() : '');

/**
 * The signed-in buyer's own name, email and phone (the stored user, refreshed from the profile), so
 * the provider's receipt reaches them. Nothing is invented: a user without a phone gets an empty one.
 * The phone keeps only digits and a leading +, the form Razorpay's contact field takes.
 */
export function checkoutPrefill(user: StoredUser | null): CheckoutPrefill {
  const phone = text(user?.phone);
  return {
    name: [text(user?.first_name), text(user?.last_name)].filter(Boolean).join(' '),
    email: text(user?.email),
    contact: phone.startsWith('+') ? `+${phone.replace(/\D/g, '')}` : phone.replace(/\D/g, ''),
  };
}

export interface CheckoutOptions {
  key: string;
  amount: number;
  currency: string;
  name: string;
  description: string;
  order_id: string;
  prefill: CheckoutPrefill;
  theme: { color: string };
}

export interface CheckoutCallbacks {
  onPaid(result: PaymentResult): void;
  onFailed(reason?: string): void;
  onClosed(): void;
}

export function checkoutOptions(course: Pick<Course, 'name' | 'description'>, order: OrderData, prefill: CheckoutPrefill): CheckoutOptions {
  return {
    key: order.key_id,
    amount: order.amount,
    currency: order.currency,
    name: course.name,
    description: course.description,
    order_id: order.order_id,
    prefill: { ...prefill },
    theme: { color: checkoutThemeColor },
  };
}

interface RazorpayInstance {
  open(): void;
  on(event: 'payment.failed', listener: (response: { error?: { description?: string } }) => void): void;
}
type RazorpayConstructor = new (options: Omit<CheckoutOptions, 'prefill'> & {
  prefill: Partial<CheckoutPrefill>;
  handler(result: PaymentResult): void;
  modal: { ondismiss(): void };
}) => RazorpayInstance;

declare global {
  interface Window {
    Razorpay?: RazorpayConstructor;
  }
}

let scriptLoading: Promise<RazorpayConstructor> | null = null;

function loadRazorpay(): Promise<RazorpayConstructor> {
  if (window.Razorpay) return Promise.resolve(window.Razorpay);
  scriptLoading ??= new Promise<RazorpayConstructor>((resolve, reject) => {
    const script = document.createElement('script');
    script.src = razorpayScriptUrl;
    script.async = true;
    script.onload = () => (window.Razorpay ? resolve(window.Razorpay) : reject(new Error('Razorpay checkout did not load')));
    script.onerror = () => reject(new Error('Razorpay checkout could not be loaded'));
    document.body.appendChild(script);
  }).catch((error: unknown) => {
    // Let a later attempt try the network again.
    scriptLoading = null;
    throw error;
  });
  return scriptLoading;
}

/**
 * Opens Razorpay's checkout; rejects only when its script cannot be loaded.
 * @public read from this module once loaded on demand (use-enrollment.ts)
 */
export async function openRazorpayCheckout(options: CheckoutOptions, callbacks: CheckoutCallbacks): Promise<void> {
  const Razorpay = await loadRazorpay();
  // Only the details we know are prefilled, and none is `readonly`: the buyer may correct them in
  // Razorpay's form, and fills in whatever is missing there.
  const prefill = Object.fromEntries(Object.entries(options.prefill).filter(([, value]) => value !== ''));
  const checkout = new Razorpay({ ...options, prefill, handler: callbacks.onPaid, modal: { ondismiss: callbacks.onClosed } });
  checkout.on('payment.failed', (response) => callbacks.onFailed(response.error?.description));
  checkout.open();
}
