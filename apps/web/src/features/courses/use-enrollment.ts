// The enrollment flow: create the order, open the provider's checkout (prefilled with the buyer's own
// contact details), verify the payment, then re-fetch trial status, courses and profile, since a
// purchase opens the course (the trial itself runs on to its end date). Outcomes reach the user as
// toasts, except a declined payment: that one waits in `declined` for the buyer to try again or not.
// A payment the provider declined is not our verification failing: nothing was charged, and the same
// order can be paid again.
import { useCallback, useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { Course } from '@mooz/contract/courses';
import { messages } from '@mooz/contract/messages';
import type { CreateOrderBody, OrderData, PaymentResult, PaymentsConfig } from '@mooz/contract/payments';
import { apiRoutes } from '@mooz/contract/api-routes';
import { ApiError, call, messageOf } from '../../lib/api';
import { useAuthStore } from '../../lib/auth-store';
import { translateServerMessage } from '../../lib/server-message';
import { notify } from '../../lib/toasts';
import type { CheckoutCallbacks, CheckoutOptions } from './checkout';
import { courseKeys } from './use-courses';

/**
 * Where orders are created. A build may leave it unset (VITE_CREATE_ORDER_ENDPOINT=""), and a server
 * without payments answers it with a bare 404: both are "Create order endpoint is undefined".
 */
const configuredEndpoint = import.meta.env.VITE_CREATE_ORDER_ENDPOINT as string | undefined;
const createOrderEndpoint: string | null =
  configuredEndpoint === undefined ? apiRoutes.payments.createOrder.path : configuredEndpoint.trim() || null;

export interface SandboxCheckoutState {
  options: CheckoutOptions;
  callbacks: CheckoutCallbacks;
}

type EnrollmentStage = 'idle' | 'ordering' | 'checkout' | 'verifying';

/** A payment the checkout reported as failed (declined card, cancelled authentication…). */
export interface DeclinedPayment {
  /** The provider's own words, when it gave any. */
  reason?: string;
  /** Opens the checkout again for the same order. */
  retry(): void;
  dismiss(): void;
}

export function useEnrollment() {
  const { t } = useTranslation();
  const client = useQueryClient();
  const [stage, setStage] = useState<EnrollmentStage>('idle');
  const [sandbox, setSandbox] = useState<SandboxCheckoutState | null>(null);
  const [declined, setDeclined] = useState<DeclinedPayment | null>(null);
  const say = useCallback((text: string) => translateServerMessage(t, text), [t]);

  const verify = useCallback(
    async (result: PaymentResult, order: OrderData) => {
      setStage('verifying');
      const pending = notify.loading(t('enroll.verifying'));
      try {
        const response = await call(apiRoutes.payments.verify, { body: { ...result, subscription_id: order.subscription_id } });
        notify.success(say(response.message ?? messages.paymentVerified));
        const auth = useAuthStore.getState();
        await Promise.all([
          auth.fetchTrialStatus(),
          client.invalidateQueries({ queryKey: courseKeys.catalogue }),
          client.invalidateQueries({ queryKey: courseKeys.mine }),
          client.invalidateQueries({ queryKey: ['sessions'] }),
          auth.fetchProfile(),
        ]);
      } catch (error) {
        notify.error(say(messageOf(error, messages.paymentVerificationFailed)));
      } finally {
        notify.dismiss(pending);
        setStage('idle');
      }
    },
    [client, say, t],
  );

  /** Returns once the checkout is open (or the order failed); the rest happens in its callbacks. */
  const enroll = useCallback(
    async (course: Course, choice: CreateOrderBody): Promise<{ ok: true } | { ok: false; errors?: Record<string, string[]> }> => {
      if (!createOrderEndpoint) {
        notify.error(say(messages.createOrderUndefined));
        return { ok: false };
      }
      setStage('ordering');
      let order: OrderData;
      let config: PaymentsConfig;
      // The checkout's own code comes with the order, not with the catalogue.
      let checkout: typeof import('./checkout');
      try {
        [order, config, checkout] = await Promise.all([
          call(apiRoutes.payments.createOrder, { path: createOrderEndpoint, body: choice }).then((r) => r.data),
          client.fetchQuery({
            queryKey: courseKeys.paymentsConfig,
            queryFn: () => call(apiRoutes.payments.config),
            staleTime: Infinity,
          }).then((r) => r.data),
          import('./checkout'),
        ]);
      } catch (error) {
        setStage('idle');
        const missing = error instanceof ApiError && error.status === 404 && error.message === messages.notFound;
        notify.error(say(missing ? messages.createOrderUndefined : messageOf(error, messages.failedToEnroll)));
        return { ok: false, errors: error instanceof ApiError ? error.errors : undefined };
      }

      const { checkoutOptions, checkoutPrefill, openRazorpayCheckout } = checkout;
      const options = checkoutOptions(course, order, checkoutPrefill(useAuthStore.getState().user));
      const callbacks: CheckoutCallbacks = {
        onPaid: (result) => {
          setSandbox(null);
          setDeclined(null);
          void verify(result, order);
        },
        onFailed: (reason) => {
          setSandbox(null);
          setStage('idle');
          setDeclined({ reason: reason?.trim() || undefined, retry: () => void openCheckout(), dismiss: () => setDeclined(null) });
        },
        onClosed: () => {
          setSandbox(null);
          setStage((current) => (current === 'checkout' ? 'idle' : current));
          notify.info(t('enroll.checkoutClosed'));
        },
      };
      async function openCheckout(): Promise<boolean> {
        setDeclined(null);
        setStage('checkout');
        if (config.provider !== 'razorpay') {
          setSandbox({ options, callbacks });
          return true;
        }
        try {
          await openRazorpayCheckout(options, callbacks);
          return true;
        } catch {
          setStage('idle');
          notify.error(t('enroll.checkoutUnavailable'));
          return false;
        }
      }
      return (await openCheckout()) ? { ok: true } : { ok: false };
    },
    [client, say, t, verify],
  );

  return { enroll, stage, sandbox, declined, busy: stage !== 'idle' };
}
