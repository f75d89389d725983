// The language menu: the app changes language at once, and a signed-in person's choice is kept on
// their account, since their mails are written in it too.
import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import { MantineProvider } from '@mantine/core';
import { I18nextProvider } from 'react-i18next';
import i18n from 'i18next';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { storageKeys } from '@mooz/contract/config';
import { useAuthStore } from '../../lib/auth-store';
import { LanguageMenu } from './language-menu';

const user = { id: 7, email: 'ada@example.test', first_name: 'Ada', last_name: 'L', phone: null, user_type: 'student', role: 'student', ability: [] };

function server() {
  const calls: { method: string; path: string; body: unknown }[] = [];
  vi.stubGlobal('fetch', async (url: string, init: RequestInit = {}) => {
    calls.push({ method: init.method ?? 'GET', path: new URL(url, 'http://localhost').pathname, body: JSON.parse(String(init.body)) });
    return new Response(JSON.stringify({ data: { ...user, is_trial: false, has_purchased: false, trial_ends_at: null, trial_remaining_seconds: 0, date_joined: '2030-01-01T00:00:00.000Z' } }), { status: 200 });
  });
  return calls;
}

async function choose(name: string) {
  const instance = i18n.createInstance();
  await instance.init({ lng: 'en', resources: { en: { translation: {} }, de: { translation: {} } } });
  render(
    <I18nextProvider i18n={instance}>
      <MantineProvider>
        <LanguageMenu defaultOpened />
      </MantineProvider>
    </I18nextProvider>,
  );
  fireEvent.click(await screen.findByText(name));
  await waitFor(() => expect(instance.language).toBe('de'));
}

afterEach(() => {
  vi.unstubAllGlobals();
  localStorage.clear();
});

describe('the language menu', () => {
  it('keeps a signed-in person’s choice on their account', async () => {
    const calls = server();
    localStorage.setItem(storageKeys.access, 'token');
    useAuthStore.getState().keepProfile({ ...user, is_trial: false, has_purchased: false, trial_ends_at: null, trial_remaining_seconds: 0, date_joined: '2030-01-01T00:00:00.000Z' } as never);
    await choose('Deutsch');
    await waitFor(() => expect(calls).toEqual([{ method: 'PATCH', path: '/api/auth/profile/', body: { language: 'de' } }]));
  });

  it('asks nothing of the server for a guest', async () => {
    const calls = server();
    await choose('Deutsch');
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(calls).toEqual([]);
  });
});
