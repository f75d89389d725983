// The checkout's two dialogs (the sandbox card form and the declined payment, Mantine Modals with their
// focus trap and scroll lock) are not part of the catalogue's or the course page's chunk: they load
// with the enrolment dialog (enroll-modal-lazy.tsx), or at the latest when first shown, and stay
// mounted from then on so they can animate their closing.
import { lazy, Suspense, useState, type ComponentProps } from 'react';
import type { PaymentDeclined } from './payment-declined';
import type { SandboxCheckout } from './sandbox-checkout';

const loadSandboxCheckout = () => import('./sandbox-checkout');
const loadPaymentDeclined = () => import('./payment-declined');
const DeferredSandboxCheckout = lazy(async () => ({ default: (await loadSandboxCheckout()).SandboxCheckout }));
const DeferredPaymentDeclined = lazy(async () => ({ default: (await loadPaymentDeclined()).PaymentDeclined }));

export function loadCheckoutDialogs() {
  return Promise.all([loadSandboxCheckout(), loadPaymentDeclined()]);
}

/** True from the first time `value` is there on. */
function useShownOnce(value: unknown): boolean {
  const [shown, setShown] = useState(false);
  if (value != null && !shown) setShown(true);
  return shown || value != null;
}

export function LazySandboxCheckout(props: ComponentProps<typeof SandboxCheckout>) {
  if (!useShownOnce(props.checkout)) return null;
  return (
    <Suspense fallback={null}>
      <DeferredSandboxCheckout {...props} />
    </Suspense>
  );
}

export function LazyPaymentDeclined(props: ComponentProps<typeof PaymentDeclined>) {
  if (!useShownOnce(props.declined)) return null;
  return (
    <Suspense fallback={null}>
      <DeferredPaymentDeclined {...props} />
    </Suspense>
  );
}
