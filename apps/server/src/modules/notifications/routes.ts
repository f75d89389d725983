// HTTP shape of notifications (service.ts) and purchases (receipts.ts): the caller's list, counts,
// marks and mail preferences; the public one-click unsubscribe (RFC 8058: a form-encoded POST, read
// by its own content-type parser); the purchases list and a purchase's PDF receipt (raw bytes, out of
// the OpenAPI document, as the certificates' PDF). Sockets join their person's channel here, so the
// `notice` job reaches every tab of a person on every process.
import type { FastifyInstance, FastifyPluginAsync, FastifySchema } from 'fastify';
import { z } from 'zod';
import { apiRoutes } from '@mooz/contract/api-routes';
import { endpoints } from '@mooz/contract/endpoints';
import { errorEnvelope } from '@mooz/contract/envelope';
import { purchaseIdParams } from '@mooz/contract/notifications';
import { authenticate, currentUser } from '../../http/authenticate';
import { notFound } from '../../http/errors';
import { route } from '../../http/route';
import { attachment } from '../../infrastructure/csv';
import { unsubscribePage } from './notice-mails';
import { receiptFileName, receiptPdf } from './receipt-pdf';
import { purchasesOf, receiptFacts, type Seller } from './receipts';
import type { Notifications } from './service';

/** The socket.io channel of one person's sockets. */
export const personChannel = (userId: number) => `person:${userId}`;

const refusals: FastifySchema = { hide: true, response: { 401: errorEnvelope, 404: errorEnvelope } };

export const notificationRoutes: FastifyPluginAsync<{ notifications: Notifications; seller: Seller }> = async (app, { notifications, seller }) => {
  const api = endpoints.notifications;
  route(app, api.list, (req) => notifications.list(currentUser(req).id, req.query));
  route(app, api.unread, (req) => notifications.unread(currentUser(req).id));
  route(app, api.markRead, (req) => notifications.markRead(currentUser(req).id, req.params.id));
  route(app, api.markAllRead, (req) => notifications.markAllRead(currentUser(req).id));
  route(app, api.preferences, (req) => notifications.preferences(currentUser(req).id));
  route(app, api.updatePreferences, (req) => notifications.updatePreferences(currentUser(req).id, req.body));

  // Mail clients post `List-Unsubscribe=One-Click` form-encoded; the token in the address is what counts.
  await app.register(async (unsubscribe) => {
    unsubscribe.removeAllContentTypeParsers();
    unsubscribe.addContentTypeParser('*', { parseAs: 'string', bodyLimit: api.unsubscribe.bodyLimit }, (_req, body, done) => done(null, body));
    route(unsubscribe, api.unsubscribe, async (req, reply) => {
      // The page's own form (a person's click) is answered with a page; a mail client's one-click with JSON.
      if (!req.headers.accept?.includes('text/html')) return notifications.unsubscribe(req.query.token);
      const read = await notifications.readToken(req.query.token);
      if (read) await notifications.unsubscribe(req.query.token);
      const page = unsubscribePage(read?.language ?? null, read ? { kind: read.kind, step: 'done' } : 'invalid');
      return reply.status(read ? 200 : 400).type('text/html; charset=utf-8').send(page);
    });
  });
  // The footer's link, opened by a person: a question and one button; opening it changes nothing.
  app.route({
    method: 'GET',
    url: api.unsubscribe.path,
    // An HTML page either way: the question, or that the link is not valid (400).
    schema: { hide: true, response: { 200: z.string(), 400: z.string() } },
    handler: async (request, reply) => {
      const token = String((request.query as { token?: unknown }).token ?? '').slice(0, 300);
      const read = token ? await notifications.readToken(token) : null;
      const page = unsubscribePage(read?.language ?? null, read ? { kind: read.kind, step: 'ask' } : 'invalid', `?token=${encodeURIComponent(token)}`);
      return reply.status(read ? 200 : 400).type('text/html; charset=utf-8').header('cache-control', 'no-store').send(page);
    },
  });

  route(app, endpoints.purchases.mine, async (req) => ({ data: await purchasesOf(app.db, currentUser(req).id, seller) }));
  app.route({
    method: 'GET',
    url: apiRoutes.purchases.receipt.path,
    onRequest: [authenticate],
    schema: refusals,
    handler: async (request, reply) => {
      const params = purchaseIdParams.safeParse(request.params);
      const facts = params.success ? await receiptFacts(app.db, params.data.id, seller) : null;
      // Someone else's purchase is not found, as one that never was.
      if (!facts || facts.buyer.id !== currentUser(request).id) throw notFound();
      const pdf = await receiptPdf(facts);
      return reply
        .status(200)
        .header('content-type', 'application/pdf')
        .header('content-disposition', attachment(receiptFileName(facts)))
        .header('x-content-type-options', 'nosniff')
        .header('cache-control', 'private, no-cache')
        .send(Buffer.from(pdf));
    },
  });
};

/** After realtime is up: every signed-in socket joins its person's channel. */
export function joinPersonChannels(app: FastifyInstance) {
  app.realtime.io.on('connection', (socket) => {
    void socket.join(personChannel(socket.data.user.id));
  });
}
