// The API's endpoints: paying for a course, and one's purchases. Assembled with the others in
// ../endpoints.ts.
import { z } from 'zod';
import { apiRoutes } from '../api-routes';
import { endpoint } from '../endpoint';
import { dataEnvelope } from '../envelope';
import { httpLimits } from '../limits';
import { purchase } from '../notifications';
import {
  createOrderBody,
  orderData,
  paymentResult,
  paymentsConfig,
  sandboxPayBody,
  verifyPaymentBody,
  verifyPaymentData,
} from '../payments';
import { done } from './answers';

export const paymentsEndpoints = {
  config: endpoint({
    ...apiRoutes.payments.config,
    summary: 'Which checkout to open, with which public key',
    tags: ['payments'],
    access: 'signedIn',
    status: 200,
    response: dataEnvelope(paymentsConfig),
  }),
  createOrder: endpoint({
    ...apiRoutes.payments.createOrder,
    summary: 'Order a course batch; creates (or reuses) a pending subscription',
    tags: ['payments'],
    access: ['create', 'Enrollment'],
    body: createOrderBody,
    status: 200,
    response: dataEnvelope(orderData),
    failures: [404, 409, 502],
  }),
  verify: endpoint({
    ...apiRoutes.payments.verify,
    summary: "Check the checkout's signature and activate the subscription",
    tags: ['payments'],
    access: ['create', 'Enrollment'],
    body: verifyPaymentBody,
    status: 200,
    response: dataEnvelope(verifyPaymentData),
    failures: [409],
  }),
  sandboxPay: endpoint({
    ...apiRoutes.payments.sandboxPay,
    summary: "Sandbox provider only: pay one's pending order as the provider's checkout would",
    tags: ['payments'],
    access: ['create', 'Enrollment'],
    body: sandboxPayBody,
    status: 200,
    response: dataEnvelope(paymentResult),
    failures: [404, 409],
  }),
  sandboxFail: endpoint({
    ...apiRoutes.payments.sandboxFail,
    summary: "Sandbox provider only: decline a payment of one's pending order, as the provider's payment.failed webhook reports it (admins see why)",
    tags: ['payments'],
    access: ['create', 'Enrollment'],
    body: sandboxPayBody,
    status: 200,
    response: done,
    failures: [404],
  }),
  /** Its body is read raw: the signature is over the exact bytes. */
  webhook: endpoint({
    ...apiRoutes.payments.webhook,
    summary: "The provider's webhook, signed with X-Razorpay-Signature over the raw body: a paid event activates, payment.failed keeps why",
    tags: ['payments'],
    access: 'public',
    status: 200,
    response: dataEnvelope(z.object({ status: z.enum(['activated', 'unchanged', 'failed', 'ignored']) })),
    bodyLimit: httpLimits.webhookBodyMaxBytes,
  }),
} as const;

export const purchasesEndpoints = {
  mine: endpoint({
    ...apiRoutes.purchases.mine,
    summary: "The caller's paid and refunded purchases with their receipts, newest first",
    tags: ['payments'],
    access: 'signedIn',
    status: 200,
    response: dataEnvelope(z.array(purchase)),
  }),
} as const;
