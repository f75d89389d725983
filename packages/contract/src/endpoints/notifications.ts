// The API's endpoints: notifications, in the app and by mail. Assembled with the others in
// ../endpoints.ts.
import { apiRoutes } from '../api-routes';
import { endpoint } from '../endpoint';
import { dataEnvelope } from '../envelope';
import {
  mailPreferences,
  mailPreferencesBody,
  notificationIdParams,
  notificationsPage,
  notificationsQuery,
  unreadCount,
  unsubscribed,
  unsubscribeQuery,
} from '../notifications';

export const notificationsEndpoints = {
  list: endpoint({
    ...apiRoutes.notifications.list,
    summary: "The caller's notifications, newest first, a page at a time, with the unread count",
    tags: ['notifications'],
    access: 'signedIn',
    query: notificationsQuery,
    status: 200,
    response: dataEnvelope(notificationsPage),
  }),
  unread: endpoint({
    ...apiRoutes.notifications.unread,
    summary: "How many of the caller's notifications are unread",
    tags: ['notifications'],
    access: 'signedIn',
    status: 200,
    response: dataEnvelope(unreadCount),
  }),
  markRead: endpoint({
    ...apiRoutes.notifications.markRead,
    summary: 'Mark one of the caller\'s notifications read; 404 for one not theirs',
    tags: ['notifications'],
    access: 'signedIn',
    params: notificationIdParams,
    status: 200,
    response: dataEnvelope(unreadCount),
    failures: [404],
  }),
  markAllRead: endpoint({
    ...apiRoutes.notifications.markAllRead,
    summary: "Mark all the caller's notifications read",
    tags: ['notifications'],
    access: 'signedIn',
    status: 200,
    response: dataEnvelope(unreadCount),
  }),
  preferences: endpoint({
    ...apiRoutes.notifications.preferences,
    summary: 'Which kinds of notification the caller gets by mail (security and payment mails are locked on)',
    tags: ['notifications'],
    access: 'signedIn',
    status: 200,
    response: dataEnvelope(mailPreferences),
  }),
  updatePreferences: endpoint({
    ...apiRoutes.notifications.updatePreferences,
    summary: 'Turn mail of some kinds on or off; a locked kind is 400',
    tags: ['notifications'],
    access: 'signedIn',
    body: mailPreferencesBody,
    status: 200,
    response: dataEnvelope(mailPreferences),
    failures: [400],
  }),
  /** Its body is the form `List-Unsubscribe=One-Click` (RFC 8058), read by the route itself, not JSON. */
  unsubscribe: endpoint({
    ...apiRoutes.notifications.unsubscribe,
    summary: 'One-click unsubscribe (RFC 8058): turns off mail of the one kind its token names; no login',
    tags: ['notifications'],
    access: 'public',
    query: unsubscribeQuery,
    status: 200,
    response: dataEnvelope(unsubscribed),
    failures: [400],
    bodyLimit: 1024,
  }),
} as const;
