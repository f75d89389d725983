// The top bar's bell: the unread count on it, and a panel listing the notifications, newest first,
// each a link to its page; opening one marks it read, and "Mark all read" does the rest. New ones
// arrive live over the socket (live-notifications.ts, loaded once the first screen is drawn).
import { useEffect, useState } from 'react';
import { ActionIcon, Box, Button, Group, Indicator, Popover, ScrollArea, Skeleton, Stack, Text, ThemeIcon, UnstyledButton } from '@mantine/core';
import { IconBell, IconBellCheck, IconAlertTriangle } from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import { useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import type { Notification } from '@mooz/contract/notifications';
import { afterFirstScreen } from '../../lib/first-screen';
import { useNotificationText, useSince } from './notification-text';
import { notificationKeys, receive, useMarkAllRead, useMarkRead, useNotifications } from './use-notifications';
import classes from './notifications.module.css';

function useLiveNotifications() {
  const client = useQueryClient();
  useEffect(() => {
    let stop: (() => void) | null = null;
    let cancelled = false;
    void afterFirstScreen(() => import('./live-notifications')).then(({ listenForNotifications }) => {
      if (cancelled) return;
      stop = listenForNotifications(
        (event) => receive(client, event),
        () => void client.invalidateQueries({ queryKey: notificationKeys.list }),
      );
    });
    return () => {
      cancelled = true;
      stop?.();
    };
  }, [client]);
}

function NotificationRow({ notification, onOpen }: { notification: Notification; onOpen: (n: Notification) => void }) {
  const text = useNotificationText();
  const since = useSince();
  return (
    <li>
      <UnstyledButton className={classes.row} data-unread={!notification.read || undefined} onClick={() => onOpen(notification)} data-testid="notification">
        <span className={classes.dot} aria-hidden />
        <Box miw={0}>
          <Text size="sm" fw={notification.read ? 400 : 600} className={classes.text}>
            {text(notification)}
          </Text>
          <Text size="xs" c="dimmed">
            <time dateTime={notification.created_at}>{since(notification.created_at)}</time>
          </Text>
        </Box>
      </UnstyledButton>
    </li>
  );
}

export function NotificationsBell() {
  const { t } = useTranslation();
  const [opened, setOpened] = useState(false);
  const navigate = useNavigate();
  const list = useNotifications();
  const markRead = useMarkRead();
  const markAll = useMarkAllRead();
  useLiveNotifications();
  const unread = list.data?.unread ?? 0;

  const open = (notification: Notification) => {
    if (!notification.read) markRead.mutate(notification.id);
    setOpened(false);
    if (notification.link) void navigate(notification.link);
  };

  const label = unread ? t('notifications.bellUnread', { count: unread }) : t('notifications.title');
  return (
    <Popover opened={opened} onChange={setOpened} position="bottom-end" width={360} shadow="md" radius="md" withinPortal trapFocus returnFocus>
      {/* The count sits on the bell; the popover's target (which gets its ARIA) is the button itself. */}
      <Indicator label={unread > 99 ? '99+' : unread} size={16} offset={6} disabled={!unread} color="red" inline data-testid="notifications-count">
        <Popover.Target>
          <ActionIcon
            variant="subtle"
            color="gray"
            size="lg"
            radius="xl"
            onClick={() => setOpened((o) => !o)}
            aria-label={label}
            title={label}
            data-testid="notifications-bell"
          >
            <IconBell size={20} stroke={1.6} />
          </ActionIcon>
        </Popover.Target>
      </Indicator>
      <Popover.Dropdown p={0} aria-label={t('notifications.title')} role="dialog" data-testid="notifications-panel">
        <Group justify="space-between" px="md" py="sm" className={classes.header}>
          <Text fw={700} component="h2" size="md" m={0}>
            {t('notifications.title')}
          </Text>
          <Button size="compact-sm" variant="subtle" onClick={() => markAll.mutate()} disabled={!unread} loading={markAll.isPending} data-testid="notifications-read-all">
            {t('notifications.markAllRead')}
          </Button>
        </Group>
        {list.isPending ? (
          <Stack p="md" gap="sm" aria-busy="true" aria-label={t('common.loading')}>
            <Skeleton h={36} />
            <Skeleton h={36} />
            <Skeleton h={36} />
          </Stack>
        ) : list.isError ? (
          <Stack align="center" p="lg" gap="xs" role="alert">
            <ThemeIcon variant="light" color="red" size="lg" radius="xl">
              <IconAlertTriangle size={18} />
            </ThemeIcon>
            <Text size="sm">{t('notifications.loadFailed')}</Text>
            <Button size="compact-sm" variant="light" onClick={() => void list.refetch()}>
              {t('common.retry')}
            </Button>
          </Stack>
        ) : list.data.items.length === 0 ? (
          <Stack align="center" p="lg" gap="xs" data-testid="notifications-empty">
            <ThemeIcon variant="light" size="xl" radius="xl">
              <IconBellCheck size={22} />
            </ThemeIcon>
            <Text fw={600} size="sm">
              {t('notifications.emptyTitle')}
            </Text>
            <Text size="sm" c="dimmed" ta="center">
              {t('notifications.emptyBody')}
            </Text>
          </Stack>
        ) : (
          <ScrollArea.Autosize mah={420} type="auto">
            <ul className={classes.list}>
              {list.data.items.map((n) => (
                <NotificationRow key={n.id} notification={n} onOpen={open} />
              ))}
            </ul>
          </ScrollArea.Autosize>
        )}
      </Popover.Dropdown>
    </Popover>
  );
}
