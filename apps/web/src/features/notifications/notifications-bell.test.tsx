import { act, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { MantineProvider } from '@mantine/core';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { MemoryRouter, useLocation } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Notification } from '@mooz/contract/notifications';
import { NotificationsBell } from './notifications-bell';
import { receive } from './use-notifications';

// The socket is the server's: here nothing connects, and pushes are handed to receive() directly.
vi.mock('./live-notifications', () => ({ listenForNotifications: () => () => {} }));

// Without i18n set up, t() answers its keys, so the texts are checked by key.
const notification = (id: number, over: Partial<Notification> = {}): Notification => ({
  id,
  kind: 'assignment_posted',
  params: { course: 'Pottery', title: `Task ${id}` },
  link: '/courses/2?tab=assignments',
  read: false,
  created_at: new Date().toISOString(),
  ...over,
});

let items: Notification[] = [];
const calls: string[] = [];
beforeEach(() => {
  calls.length = 0;
  localStorage.setItem('accessToken', 'token');
  vi.stubGlobal('fetch', async (url: string, init?: RequestInit) => {
    calls.push(`${init?.method ?? 'GET'} ${url}`);
    if (url.includes('/read/')) return new Response(JSON.stringify({ data: { unread: items.filter((n) => !n.read).length - 1 } }), { status: 200 });
    return new Response(JSON.stringify({ data: { items, unread: items.filter((n) => !n.read).length, more: false } }), { status: 200 });
  });
});
afterEach(() => vi.unstubAllGlobals());

function Where() {
  return <output data-testid="where">{useLocation().pathname + useLocation().search}</output>;
}

function renderBell(client = new QueryClient()) {
  render(
    <QueryClientProvider client={client}>
      <MantineProvider>
        <MemoryRouter>
          <NotificationsBell />
          <Where />
        </MemoryRouter>
      </MantineProvider>
    </QueryClientProvider>,
  );
  return client;
}

describe('the notifications bell', () => {
  it('counts the unread, lists them, and opening one marks it read and follows its link', async () => {
    items = [notification(2), notification(1, { read: true })];
    renderBell();
    const bell = await screen.findByRole('button', { name: 'notifications.bellUnread' });
    expect(screen.getByTestId('notifications-count')).toHaveTextContent('1');
    fireEvent.click(bell);
    const rows = await screen.findAllByTestId('notification');
    expect(rows.map((row) => row.textContent)).toEqual([expect.stringContaining('notifications.kind.assignment_posted'), expect.stringContaining('notifications.kind.assignment_posted')]);
    fireEvent.click(rows[0]!);
    await waitFor(() => expect(screen.getByTestId('where')).toHaveTextContent('/courses/2?tab=assignments'));
    expect(calls).toContain('POST /api/notifications/2/read/');
    await waitFor(() => expect(screen.getByRole('button', { name: 'notifications.title' })).toBeInTheDocument());
  });

  it('says so when there is nothing, and does not mark a read one again', async () => {
    items = [];
    renderBell();
    fireEvent.click(await screen.findByRole('button', { name: 'notifications.title' }));
    expect(await screen.findByTestId('notifications-empty')).toHaveTextContent('notifications.emptyTitle');
    expect(screen.getByTestId('notifications-read-all')).toBeDisabled();
  });

  it('counts a notification pushed over the socket at once, without asking the server', async () => {
    items = [];
    const client = renderBell();
    await screen.findByRole('button', { name: 'notifications.title' });
    const asked = calls.length;
    act(() => receive(client, { notification: notification(7), unread: 1 }));
    expect(await screen.findByRole('button', { name: 'notifications.bellUnread' })).toBeInTheDocument();
    expect(screen.getByTestId('notifications-count')).toHaveTextContent('1');
    expect(calls.length).toBe(asked);
  });
});
