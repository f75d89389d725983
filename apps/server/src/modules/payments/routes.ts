// HTTP shape of /api/payments/*. The webhook gets its body raw: its signature is over the exact bytes.
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { dataEnvelope, errorEnvelope } from '@mooz/contract/envelope';
import { httpLimits } from '@mooz/contract/limits';
import {
  createOrderBody,
  orderData,
  paymentResult,
  paymentsConfig,
  sandboxPayBody,
  verifyPaymentBody,
  verifyPaymentData,
} from '@mooz/contract/payments';
import { allow, authenticate, currentUser } from '../../http/authenticate';
import type { PaymentsService } from './service';

// What payment rules add (an unknown course or order, already bought, the provider down); the statuses every
// route of its shape can answer are declared centrally.
const failures = { 404: errorEnvelope, 409: errorEnvelope, 502: errorEnvelope };
const security = [{ bearer: [] }];

export const paymentRoutes: FastifyPluginAsyncZod<{ payments: PaymentsService }> = async (app, { payments }) => {
  const tags = ['payments'];

  app.get(
    '/payments/config/',
    {
      onRequest: [authenticate],
      schema: { tags, security, summary: 'Which checkout to open, with which public key', response: { 200: dataEnvelope(paymentsConfig), ...failures } },
    },
    async () => payments.config(),
  );

  app.post(
    '/payments/create_order/',
    {
      onRequest: [authenticate, allow('create', 'Enrollment')],
      schema: {
        tags,
        security,
        summary: 'Order a course batch; creates (or reuses) a pending subscription',
        body: createOrderBody,
        response: { 200: dataEnvelope(orderData), ...failures },
      },
    },
    async (req) => payments.createOrder(currentUser(req), req.body),
  );

  app.post(
    '/payments/verify_payment/',
    {
      onRequest: [authenticate, allow('create', 'Enrollment')],
      schema: {
        tags,
        security,
        summary: "Check the checkout's signature and activate the subscription",
        body: verifyPaymentBody,
        response: { 200: dataEnvelope(verifyPaymentData), ...failures },
      },
    },
    async (req) => payments.verifyPayment(currentUser(req), req.body),
  );

  app.post(
    '/payments/sandbox/pay/',
    {
      onRequest: [authenticate, allow('create', 'Enrollment')],
      schema: {
        tags,
        security,
        summary: "Sandbox provider only: pay one's pending order as the provider's checkout would",
        body: sandboxPayBody,
        response: { 200: dataEnvelope(paymentResult), ...failures },
      },
    },
    async (req) => payments.sandboxPay(currentUser(req), req.body.order_id),
  );

  // Its own encapsulated context, so the raw-body parser applies to this route only.
  await app.register(async (webhook) => {
    webhook.removeAllContentTypeParsers();
    webhook.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: httpLimits.webhookBodyMaxBytes }, (_req, body, done) => done(null, body));
    webhook.post(
      '/payments/webhook/',
      {
        schema: {
          tags,
          summary: "The provider's webhook, signed with X-Razorpay-Signature over the raw body",
          response: { 200: dataEnvelope(z.object({ status: z.enum(['activated', 'unchanged', 'ignored']) })), ...failures },
        },
      },
      async (req) => {
        const raw = Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0);
        const header = req.headers['x-razorpay-signature'];
        return payments.webhook(raw, Array.isArray(header) ? header[0] : header);
      },
    );
  });
};
