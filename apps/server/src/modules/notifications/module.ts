// Puts the notifications module in the app: its outbox handlers, its routes, and the door
// (app.notifications) the other modules call. app.ts builds its service and door.
import type { FastifyInstance } from 'fastify';
import type { NotificationsDoor } from './door';
import type { Seller } from './receipts';
import { notificationRoutes } from './routes';
import type { NoticeJob, NoticeMailJob, Notifications } from './service';

declare module 'fastify' {
  interface FastifyInstance {
    /** The notifications module's door (modules/notifications/door.ts). */
    notifications: NotificationsDoor;
  }
}

/** Puts the notifications (built in app.ts) in the app: the door other modules call, the outbox's handlers and the routes. */
export async function registerNotifications(app: FastifyInstance, built: { notifications: Notifications; door: NotificationsDoor; seller: Seller }) {
  app.decorate('notifications', built.door);
  app.outbox.handle<NoticeJob>('notice', (job) => built.notifications.pushNotice(job));
  app.outbox.handle<NoticeMailJob>('notice-mail', (job) => built.notifications.mailNotices(job));
  await app.register(notificationRoutes, { notifications: built.notifications, seller: built.seller });
}
