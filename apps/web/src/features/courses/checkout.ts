// The provider's checkout: its options (the key the server hands over, the order's amount and currency,
// the course name and description, the order id, placeholder contact details, a blue theme colour) and Razorpay's own script, loaded only
// when the server's provider is `razorpay`. The sandbox provider has a look-alike dialog instead.
import type { Course } from '@mooz/contract/courses';
import type { OrderData, PaymentResult } from '@mooz/contract/payments';

export const razorpayScriptUrl = 'https://checkout.razorpay.com/v1/checkout.js';

/** Razorpay's own blue. */
export const checkoutThemeColor = '#3399cc';

/** Placeholders: the checkout asks the buyer for their real details itself. */
export const checkoutPrefill = { name: 'Mooz Learner', email: 'learner@example.com', contact: '9999999999' } as const;

export interface CheckoutOptions {
  key: string;
  amount: number;
  currency: string;
  name: string;
  description: string;
  order_id: string;
  prefill: { name: string; email: string; contact: string };
  theme: { color: string };
}

export interface CheckoutCallbacks {
  onPaid(result: PaymentResult): void;
  onFailed(reason?: string): void;
  onClosed(): void;
}

export function checkoutOptions(course: Pick<Course, 'name' | 'description'>, order: OrderData): CheckoutOptions {
  return {
    key: order.key_id,
    amount: order.amount,
    currency: order.currency,
    name: course.name,
    description: course.description,
    order_id: order.order_id,
    prefill: { ...checkoutPrefill },
    theme: { color: checkoutThemeColor },
  };
}

interface RazorpayInstance {
  open(): void;
  on(event: 'payment.failed', listener: (response: { error?: { description?: string } }) => void): void;
}
type RazorpayConstructor = new (options: CheckoutOptions & {
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

/** Opens Razorpay's checkout; rejects only when its script cannot be loaded. */
export async function openRazorpayCheckout(options: CheckoutOptions, callbacks: CheckoutCallbacks): Promise<void> {
  const Razorpay = await loadRazorpay();
  const checkout = new Razorpay({ ...options, handler: callbacks.onPaid, modal: { ondismiss: callbacks.onClosed } });
  checkout.on('payment.failed', (response) => callbacks.onFailed(response.error?.description));
  checkout.open();
}
