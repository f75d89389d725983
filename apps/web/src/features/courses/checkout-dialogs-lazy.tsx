// The checkout's two dialogs (the sandbox card form and the declined payment, Mantine Modals with their
// focus trap and scroll lock) load with the enrolment dialog (enroll-modal-lazy.tsx), or at the latest
// when first shown.
import { deferredDialog } from './deferred-dialog';

const loadSandboxCheckout = () => import('./sandbox-checkout');
const loadPaymentDeclined = () => import('./payment-declined');

export function loadCheckoutDialogs() {
  return Promise.all([loadSandboxCheckout(), loadPaymentDeclined()]);
}

export const LazySandboxCheckout = deferredDialog(
  async () => (await loadSandboxCheckout()).SandboxCheckout,
  (props) => props.checkout,
);

export const LazyPaymentDeclined = deferredDialog(
  async () => (await loadPaymentDeclined()).PaymentDeclined,
  (props) => props.declined,
);
