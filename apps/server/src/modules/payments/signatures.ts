// The provider's signature rules (contract): a payment is hex(HMAC-SHA256(order_id + "|" + payment_id,
// key secret)); a webhook is hex(HMAC-SHA256(raw body, webhook secret)). Compared in constant time.
import { createHmac, timingSafeEqual } from 'node:crypto';

export const paymentSignature = (orderId: string, paymentId: string, keySecret: string) =>
  createHmac('sha256', keySecret).update(`${orderId}|${paymentId}`).digest('hex');

export const webhookSignature = (rawBody: Buffer | string, webhookSecret: string) =>
  createHmac('sha256', webhookSecret).update(rawBody).digest('hex');

/** Whether `given` is the expected hex signature, without leaking through timing how much of it matched. */
export function signatureMatches(expectedHex: string, given: string | undefined): boolean {
  if (!given) return false;
  const expected = Buffer.from(expectedHex, 'utf8');
  const actual = Buffer.from(given.trim().toLowerCase(), 'utf8');
  // Every valid signature has the same public length (64 hex digits); only the content is secret.
  return actual.length === expected.length && timingSafeEqual(expected, actual);
}
