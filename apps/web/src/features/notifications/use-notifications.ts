// Server state of notifications: the bell's list and unread count, marking read, mail preferences and
// the caller's purchases. A notification pushed over the socket (live-notifications.ts) is put into the
// cached list at once, so the bell changes without asking the server again.
import { useMutation, useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { apiRoutes } from '@mooz/contract/api-routes';
import type { MailPreference, NotificationEvent, NotificationKind, NotificationsPage } from '@mooz/contract/notifications';
import { call } from '../../lib/api';

export const notificationKeys = {
  list: ['notifications', 'list'] as const,
  preferences: ['notifications', 'preferences'] as const,
  purchases: ['purchases'] as const,
};

export function useNotifications(enabled = true) {
  return useQuery({
    queryKey: notificationKeys.list,
    queryFn: async ({ signal }) => (await call(apiRoutes.notifications.list, { signal })).data,
    enabled,
    // The socket keeps it fresh; a focus after a long absence asks again.
    staleTime: 60_000,
  });
}

/** A notification that arrived over the socket: first in the list, with the server's count. */
export function receive(client: QueryClient, event: NotificationEvent) {
  client.setQueryData<NotificationsPage>(notificationKeys.list, (page) =>
    page
      ? { ...page, unread: event.unread, items: [event.notification, ...page.items.filter((n) => n.id !== event.notification.id)] }
      : { items: [event.notification], unread: event.unread, more: false },
  );
}

export function useMarkRead() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => call(apiRoutes.notifications.markRead, { params: { id } }),
    onSuccess: (answer, id) =>
      client.setQueryData<NotificationsPage>(notificationKeys.list, (page) =>
        page && { ...page, unread: answer.data.unread, items: page.items.map((n) => (n.id === id ? { ...n, read: true } : n)) },
      ),
  });
}

export function useMarkAllRead() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: () => call(apiRoutes.notifications.markAllRead),
    onSuccess: () =>
      client.setQueryData<NotificationsPage>(notificationKeys.list, (page) => page && { ...page, unread: 0, items: page.items.map((n) => ({ ...n, read: true })) }),
  });
}

export function useMailPreferences() {
  return useQuery({
    queryKey: notificationKeys.preferences,
    queryFn: async ({ signal }) => (await call(apiRoutes.notifications.preferences, { signal })).data,
  });
}

export function useSetMailPreference() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (change: { kind: NotificationKind; mail: boolean }) =>
      call(apiRoutes.notifications.updatePreferences, { body: { preferences: [change] } }),
    onSuccess: (answer) => client.setQueryData<MailPreference[]>(notificationKeys.preferences, answer.data),
  });
}

export function usePurchases() {
  return useQuery({
    queryKey: notificationKeys.purchases,
    queryFn: async ({ signal }) => (await call(apiRoutes.purchases.mine, { signal })).data,
  });
}
