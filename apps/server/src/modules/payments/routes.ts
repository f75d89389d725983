// HTTP shape of /api/payments/*. The webhook gets its body raw: its signature is over the exact bytes.
import type { FastifyPluginAsync } from 'fastify';
import { endpoints } from '@mooz/contract/endpoints';
import { currentUser } from '../../http/authenticate';
import { route } from '../../http/route';
import type { PaymentsService } from './service';

export const paymentRoutes: FastifyPluginAsync<{ payments: PaymentsService }> = async (app, { payments }) => {
  const api = endpoints.payments;
  route(app, api.config, () => payments.config());
  route(app, api.createOrder, (req) => payments.createOrder(currentUser(req), req.body));
  route(app, api.verify, (req) => payments.verifyPayment(currentUser(req), req.body));
  route(app, api.sandboxPay, (req) => payments.sandboxPay(currentUser(req), req.body.order_id));
  route(app, api.sandboxFail, (req) => payments.sandboxFail(currentUser(req), req.body.order_id));

  // Its own encapsulated context, so the raw-body parser applies to this route only.
  await app.register(async (webhook) => {
    webhook.removeAllContentTypeParsers();
    webhook.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: api.webhook.bodyLimit }, (_req, body, done) => done(null, body));
    route(webhook, api.webhook, (req) => {
      const raw = Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0);
      const header = req.headers['x-razorpay-signature'];
      return payments.webhook(raw, Array.isArray(header) ? header[0] : header);
    });
  });
};
