// Enrollment and payment: request bodies and response shapes of /api/payments/*.
import { z } from 'zod';
import { batchKind, clockTime, isoDate } from './courses';
import { recordId, singleLineText } from './primitives';

export const paymentProviders = ['razorpay', 'sandbox'] as const;
export type PaymentProvider = (typeof paymentProviders)[number];

/** The schedule choice; whether it fits the course is checked on the server, field by field. */
export const createOrderBody = z.object({
  course_id: recordId(),
  batch: batchKind,
  start_date: isoDate,
  end_date: isoDate,
  time: clockTime.optional(),
  saturday_time: clockTime.optional(),
  sunday_time: clockTime.optional(),
  /** Optional: the batch (`GET /api/courses/{id}/` lists them); it must agree with the fields above. */
  batch_id: recordId().optional(),
});
export type CreateOrderBody = z.infer<typeof createOrderBody>;

export const orderData = z.object({
  /** Minor units, always the course's price on the server. */
  amount: z.number().int(),
  currency: z.string(),
  order_id: z.string(),
  subscription_id: z.string(),
  key_id: z.string(),
});
export type OrderData = z.infer<typeof orderData>;

const providerId = singleLineText().trim().min(1, 'Required').max(100);

/** What the provider's checkout hands back on success. */
export const paymentResult = z.object({
  razorpay_order_id: providerId,
  razorpay_payment_id: providerId,
  razorpay_signature: singleLineText().trim().min(1, 'Required').max(256),
});
export type PaymentResult = z.infer<typeof paymentResult>;

export const verifyPaymentBody = paymentResult.extend({
  subscription_id: singleLineText().trim().min(1, 'Required').max(100),
});
export type VerifyPaymentBody = z.infer<typeof verifyPaymentBody>;

export const verifyPaymentData = z.object({
  subscription_id: z.string(),
  course_id: z.number().int(),
  status: z.literal('active'),
});

export const paymentsConfig = z.object({
  provider: z.enum(paymentProviders),
  key_id: z.string(),
});
export type PaymentsConfig = z.infer<typeof paymentsConfig>;

/** The sandbox checkout: pay the caller's pending order, as the provider's checkout would. */
export const sandboxPayBody = z.object({ order_id: providerId });
