// Enrollment and payment: an order for a schedule choice, then activation by the browser's verified
// payment or the provider's webhook, whichever comes first. The amount is always the course's price.
import { randomUUID } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import { paymentRules } from '@mooz/contract/admin';
import { messages } from '@mooz/contract/messages';
import type { CreateOrderBody, OrderData, PaymentResult, PaymentsConfig, VerifyPaymentBody } from '@mooz/contract/payments';
import { paymentResult } from '@mooz/contract/payments';
import type { Database } from '../../db/client';
import { badRequest, conflict, notFound } from '../../http/errors';
import { batchesOf, chooseBatch } from '../batches';
import type { AuthUser } from '../../http/authenticate';
import { activateSubscription, type Activation, createPendingSubscription, hasBought, findSubscription, findSubscriptionByOrder, pendingSubscription, recordPaymentFailure, type ScheduleChoice, updatePendingSubscription } from '../courses';
import type { CoursesService } from '../courses';
import type { NotificationsDoor } from '../notifications';
import { providerId, type PaymentProvider } from './provider';
import { paymentSignature, signatureMatches, webhookSignature } from './signatures';

type Caller = Pick<AuthUser, 'id'>;

interface PaymentsDeps {
  db: Database;
  courses: CoursesService;
  provider: PaymentProvider;
  keySecret: string;
  webhookSecret: string;
  log: FastifyBaseLogger;
  now?: () => Date;
  /** The receipt and the teacher's news of a new student, written with the activation. */
  notifications?: Pick<NotificationsDoor, 'paid' | 'kick'>;
}

/** Provider events that mean the money was taken. */
const paidEvents = new Set(['payment.captured', 'order.paid']);

/** The sandbox's words for a declined card, as a provider's own (untranslated) failure reason. */
const sandboxDeclineReason = 'Card declined by the bank (sandbox: a simulated failure)';

const isProviderId = (value: unknown): value is string => paymentResult.shape.razorpay_order_id.safeParse(value).success;

/** Why the provider says a payment failed, as admins read it: its description (else its reason code), one clean line. */
function failureReasonOf(payment: { error_description?: unknown; error_reason?: unknown; error_code?: unknown } | undefined): string | null {
  for (const said of [payment?.error_description, payment?.error_reason, payment?.error_code]) {
    if (typeof said !== 'string') continue;
    // eslint-disable-next-line no-control-regex
    const line = said.replace(/[\u0000-\u001f\u007f-\u009f]+/g, ' ').replace(/\s+/g, ' ').trim();
    if (line) return line.slice(0, paymentRules.failureReasonMaxLength);
  }
  return null;
}

export function createPaymentsService(deps: PaymentsDeps) {
  const { db, provider, log } = deps;
  const now = deps.now ?? (() => new Date());
  const verificationFailed = () => badRequest(messages.paymentVerificationFailed);

  function orderData(subscription: { id: string; amount: number; currency: string; orderId: string }): OrderData {
    return {
      amount: subscription.amount,
      currency: subscription.currency,
      order_id: subscription.orderId,
      subscription_id: subscription.id,
      key_id: provider.keyId,
    };
  }

  /** Activates once, by whichever of the browser and the webhook comes first; its receipt goes with it. */
  async function activate(subscriptionId: string, paymentId: string) {
    const paid = deps.notifications?.paid;
    const result = await activateSubscription(db, subscriptionId, paymentId, now(), paid && ((tx, id) => paid(tx, id)));
    if (result.outcome === 'activated') deps.notifications?.kick();
    return result;
  }

  function logActivation(source: 'verify' | 'webhook', subscriptionId: string, result: Activation) {
    const level = result.outcome === 'activated' || result.outcome === 'unchanged' ? 'info' : 'warn';
    log[level]({ source, subscriptionId, outcome: result.outcome }, 'subscription activation');
  }

  return {
    config(): { data: PaymentsConfig } {
      return { data: { provider: provider.name, key_id: provider.keyId } };
    },

    /**
     * A pending subscription and its order. Asking again for the same course while one is pending
     * reuses it (a double click is one order): the newest choice is kept, and a new order is made
     * only when the course's price changed since.
     */
    async createOrder(caller: Caller, body: CreateOrderBody): Promise<{ data: OrderData }> {
      const course = await deps.courses.purchasable(body.course_id);
      if (!course) throw notFound(messages.courseNotFound);
      if (await hasBought(db, caller.id, course.id)) throw conflict(messages.alreadyEnrolled);
      const batch = chooseBatch(await batchesOf(db, course.id), course.timeZone, body, now());
      const choice: ScheduleChoice = {
        batch: batch.kind,
        batchId: batch.id,
        startDate: batch.startDate,
        endDate: batch.endDate,
        time: batch.time,
        saturdayTime: batch.saturdayTime,
        sundayTime: batch.sundayTime,
      };
      const price = { amount: course.price, currency: course.currency };

      const pending = await pendingSubscription(db, caller.id, course.id);
      if (pending && pending.amount === price.amount && pending.currency === price.currency) {
        const updated = await updatePendingSubscription(db, pending.id, { ...choice, ...price, orderId: pending.orderId });
        if (!updated) throw conflict(messages.alreadyEnrolled);
        return { data: orderData(updated) };
      }

      const subscriptionId = pending?.id ?? randomUUID();
      const order = await provider.createOrder({
        ...price,
        receipt: subscriptionId,
        notes: { course_id: String(course.id), user_id: String(caller.id), subscription_id: subscriptionId },
      });
      if (pending) {
        const updated = await updatePendingSubscription(db, pending.id, { ...choice, ...price, orderId: order.id });
        if (!updated) throw conflict(messages.alreadyEnrolled);
        return { data: orderData(updated) };
      }
      const created = await createPendingSubscription(db, {
        id: subscriptionId,
        userId: caller.id,
        courseId: course.id,
        ...choice,
        ...price,
        orderId: order.id,
      });
      return { data: orderData(created) };
    },

    async verifyPayment(caller: Caller, body: VerifyPaymentBody) {
      const subscription = await findSubscription(db, body.subscription_id);
      // Someone else's subscription, or an order that is not this one's: the same answer as a bad signature.
      if (!subscription || subscription.userId !== caller.id || subscription.orderId !== body.razorpay_order_id) {
        log.warn({ subscriptionId: body.subscription_id, userId: caller.id }, 'payment verification: no such order for this user');
        throw verificationFailed();
      }
      const expected = paymentSignature(body.razorpay_order_id, body.razorpay_payment_id, deps.keySecret);
      if (!signatureMatches(expected, body.razorpay_signature)) {
        log.warn({ subscriptionId: subscription.id }, 'payment verification: bad signature');
        throw verificationFailed();
      }
      const result = await activate(subscription.id, body.razorpay_payment_id);
      logActivation('verify', subscription.id, result);
      if (result.outcome === 'already_enrolled') throw conflict(messages.alreadyEnrolled);
      if (result.outcome === 'sold_out') throw conflict(messages.batchFilledWhilePaying);
      if (result.outcome !== 'activated' && result.outcome !== 'unchanged') throw verificationFailed();
      return {
        data: { subscription_id: subscription.id, course_id: subscription.courseId, status: 'active' as const },
        message: messages.paymentVerified,
      };
    },

    /** The provider's webhook: only a correctly signed raw body is read at all. */
    async webhook(rawBody: Buffer, signature: string | undefined) {
      if (!signatureMatches(webhookSignature(rawBody, deps.webhookSecret), signature)) {
        log.warn('payment webhook: bad signature');
        throw badRequest(messages.invalidWebhookSignature);
      }
      let event: {
        event?: unknown;
        payload?: {
          payment?: {
            entity?: { id?: unknown; order_id?: unknown; amount?: unknown; currency?: unknown; error_description?: unknown; error_reason?: unknown; error_code?: unknown };
          };
          order?: { entity?: { id?: unknown; amount_paid?: unknown; currency?: unknown } };
        };
      };
      try {
        event = JSON.parse(rawBody.toString('utf8'));
      } catch {
        throw badRequest('The webhook body is not JSON');
      }
      const ignored = { data: { status: 'ignored' as const } };
      // Valid JSON need not be an event (`null`, a number, a list): nothing to act on.
      if (typeof event !== 'object' || event === null || Array.isArray(event)) return ignored;
      const payment = event.payload?.payment?.entity;
      if (event.event === 'payment.failed') {
        // Admins see why; the order stays payable (the buyer may try again, and a later payment activates).
        if (!isProviderId(payment?.order_id)) return ignored;
        const recorded = await recordPaymentFailure(db, payment.order_id, failureReasonOf(payment), now());
        log.info({ orderId: payment.order_id, recorded }, 'payment failed at the provider');
        return { data: { status: recorded ? ('failed' as const) : ('ignored' as const) } };
      }
      if (typeof event.event !== 'string' || !paidEvents.has(event.event)) return ignored;
      const orderId = payment?.order_id ?? event.payload?.order?.entity?.id;
      const paymentId = payment?.id;
      // Ids go into queries: they must look like ids (a NUL would be a database error, not a miss).
      if (!isProviderId(orderId) || !isProviderId(paymentId)) {
        log.warn({ event: event.event }, 'payment webhook without order or payment id');
        return ignored;
      }
      const subscription = await findSubscriptionByOrder(db, orderId);
      if (!subscription) {
        log.warn({ orderId }, 'payment webhook for an unknown order');
        return ignored;
      }
      // Only money that was seen to arrive activates: an event without the amount, or with another
      // amount or currency than the order's, is logged and ignored.
      const paid = payment?.amount ?? event.payload?.order?.entity?.amount_paid;
      const currency = payment?.currency ?? event.payload?.order?.entity?.currency;
      if (paid !== subscription.amount || (currency !== undefined && currency !== subscription.currency)) {
        log.error({ orderId, paid, currency, due: subscription.amount }, 'payment webhook amount is missing or differs from the order');
        return ignored;
      }
      const result = await activate(subscription.id, paymentId);
      logActivation('webhook', subscription.id, result);
      const status = result.outcome === 'activated' ? 'activated' : result.outcome === 'unchanged' ? 'unchanged' : 'ignored';
      return { data: { status } as { status: 'activated' | 'unchanged' | 'failed' | 'ignored' } };
    },

    /** The sandbox's checkout declines a payment: recorded as the provider's payment.failed webhook would be. */
    async sandboxFail(caller: Caller, orderId: string): Promise<{ data: null }> {
      if (provider.name !== 'sandbox') throw notFound();
      const subscription = await findSubscriptionByOrder(db, orderId);
      if (!subscription || subscription.userId !== caller.id) throw notFound();
      await recordPaymentFailure(db, orderId, sandboxDeclineReason, now());
      return { data: null };
    },

    /** The sandbox's checkout: pays the caller's pending order and signs it as the provider would. */
    async sandboxPay(caller: Caller, orderId: string): Promise<{ data: PaymentResult }> {
      if (provider.name !== 'sandbox') throw notFound();
      const subscription = await findSubscriptionByOrder(db, orderId);
      if (!subscription || subscription.userId !== caller.id) throw notFound();
      if (subscription.status !== 'pending') throw conflict(messages.alreadyEnrolled);
      const paymentId = providerId('pay');
      return {
        data: {
          razorpay_order_id: orderId,
          razorpay_payment_id: paymentId,
          razorpay_signature: paymentSignature(orderId, paymentId, deps.keySecret),
        },
      };
    },
  };
}

export type PaymentsService = ReturnType<typeof createPaymentsService>;
