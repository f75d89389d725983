// Wires the notifications module into the app: its service, its outbox handlers, its routes, and the
// door (app.notifications) the other modules call.
import type { FastifyInstance } from 'fastify';
import { publicOrigin } from '../sessions';
import { createNotificationsDoor, type NotificationsDoor } from './door';
import { notificationRoutes, personChannel } from './routes';
import { createNotifications, type NoticeJob, type NoticeMailJob } from './service';

declare module 'fastify' {
  interface FastifyInstance {
    /** The notifications module's door (modules/notifications/door.ts). */
    notifications: NotificationsDoor;
  }
}

export async function registerNotifications(app: FastifyInstance, options: { now?: () => Date } = {}): Promise<NotificationsDoor> {
  const origin = () => publicOrigin(app.config);
  const notifications = createNotifications({
    db: app.db,
    outbox: app.outbox,
    mailer: app.mailer,
    secret: app.jwtSecret,
    origin,
    // Realtime starts after the modules; a notice pushed before it is up is read from the list.
    push: (userId, event) => app.realtime?.io.to(personChannel(userId)).emit('action:notification', event),
    now: options.now,
  });
  const door = createNotificationsDoor({ db: app.db, notifications, seller: app.config.seller, origin, secret: app.jwtSecret, now: options.now });
  app.decorate('notifications', door);
  app.outbox.handle<NoticeJob>('notice', (job) => notifications.pushNotice(job));
  app.outbox.handle<NoticeMailJob>('notice-mail', (job) => notifications.mailNotices(job));
  await app.register(notificationRoutes, { notifications, seller: app.config.seller });
  return door;
}
