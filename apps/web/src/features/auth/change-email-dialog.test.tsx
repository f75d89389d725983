import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import { MantineProvider } from '@mantine/core';
import i18next from 'i18next';
import { I18nextProvider } from 'react-i18next';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { storageKeys } from '@mooz/contract/config';
import { messages } from '@mooz/contract/messages';
import { useAuthStore } from '../../lib/auth-store';
import { ChangeEmailDialog } from './change-email-dialog';

async function english() {
  const translation = JSON.parse(readFileSync(resolve(import.meta.dirname, '../../../public/locales/en/translation.json'), 'utf8')) as Record<string, string>;
  const instance = i18next.createInstance();
  await instance.init({ lng: 'en', resources: { en: { translation } }, interpolation: { escapeValue: false } });
  return instance;
}

const user = { id: 7, email: 'ada@example.test', first_name: 'Ada', last_name: 'L', phone: null, user_type: 'student', role: 'student', ability: [] };
const json = (status: number, body: unknown) => new Response(JSON.stringify(body), { status });

/** The server, as far as the dialog goes: a call's path and body, answered by `answer`. */
function server(answer: (path: string, body: Record<string, string>) => Response) {
  const calls: { path: string; body: Record<string, string> }[] = [];
  vi.stubGlobal('fetch', async (url: string, init: RequestInit = {}) => {
    const call = { path: new URL(url, 'http://localhost').pathname, body: JSON.parse(String(init.body)) as Record<string, string> };
    calls.push(call);
    return answer(call.path, call.body);
  });
  return calls;
}

async function open(onClose = vi.fn()) {
  render(
    <I18nextProvider i18n={await english()}>
      <MantineProvider>
        <ChangeEmailDialog opened onClose={onClose} />
      </MantineProvider>
    </I18nextProvider>,
  );
  return onClose;
}

const fill = (label: RegExp, value: string) => fireEvent.change(screen.getByLabelText(label), { target: { value } });

beforeEach(() => {
  localStorage.setItem(storageKeys.access, 'token');
  useAuthStore.getState().keepProfile({ ...user, is_trial: false, has_purchased: false, trial_ends_at: null, trial_remaining_seconds: 0, date_joined: '2030-01-01T00:00:00.000Z' } as never);
});
afterEach(() => {
  vi.unstubAllGlobals();
  localStorage.clear();
});

describe('the change email dialog', () => {
  it('sends a code to the new address, confirms it, and keeps the new email in the profile', async () => {
    const calls = server((path, body) =>
      path.endsWith('/confirm/')
        ? json(200, { data: { ...useAuthStore.getState().user, email: body.new_email }, message: messages.emailChanged })
        : json(200, { data: null, message: messages.emailChangeCodeSent }),
    );
    const onClose = await open();
    fill(/^New email/, ' Grace@Example.test ');
    fill(/^Current password/, 'my-password');
    fireEvent.click(screen.getByRole('button', { name: 'Send code' }));
    expect(await screen.findByTestId('change-email-sent')).toHaveTextContent('We sent a code to Grace@Example.test.');
    expect(calls[0]).toEqual({ path: '/api/auth/change-email/', body: { new_email: 'Grace@Example.test', password: 'my-password' } });

    const boxes = await screen.findAllByRole('textbox', { name: /digit/i });
    fireEvent.change(boxes[0]!, { target: { value: '123456' } });
    fireEvent.click(screen.getByRole('button', { name: 'Confirm' }));
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    expect(calls[1]).toEqual({ path: '/api/auth/change-email/confirm/', body: { new_email: 'Grace@Example.test', otp: '123456' } });
    expect(useAuthStore.getState().user?.email).toBe('Grace@Example.test');
  });

  it('checks the fields before sending anything', async () => {
    const calls = server(() => json(500, {}));
    await open();
    fill(/^New email/, 'not-an-address');
    fireEvent.click(screen.getByRole('button', { name: 'Send code' }));
    expect(await screen.findByText('Enter a valid email address')).toBeInTheDocument();
    expect(screen.getByText('Required')).toBeInTheDocument();
    expect(calls).toEqual([]);
  });

  it("puts the server's refusals on their fields, and a wrong code on the code", async () => {
    server((path, body) => {
      if (path.endsWith('/confirm/')) return json(400, { message: messages.codeInvalid, errors: { otp: [messages.codeInvalid] } });
      if (body.password !== 'my-password') return json(400, { message: messages.wrongPassword, errors: { password: [messages.wrongPassword] } });
      if (body.new_email === 'taken@example.test') return json(409, { message: messages.emailTaken, errors: { new_email: [messages.emailTaken] } });
      return json(200, { data: null, message: messages.emailChangeCodeSent });
    });
    const onClose = await open();
    fill(/^New email/, 'taken@example.test');
    fill(/^Current password/, 'a-guess');
    fireEvent.click(screen.getByRole('button', { name: 'Send code' }));
    expect(await screen.findByText('The current password is not correct')).toBeInTheDocument();

    fill(/^Current password/, 'my-password');
    fireEvent.click(screen.getByRole('button', { name: 'Send code' }));
    expect(await screen.findByText('An account with this email already exists')).toBeInTheDocument();

    fill(/^New email/, 'free@example.test');
    fireEvent.click(screen.getByRole('button', { name: 'Send code' }));
    const boxes = await screen.findAllByRole('textbox', { name: /digit/i });
    fireEvent.change(boxes[0]!, { target: { value: '000000' } });
    fireEvent.click(screen.getByRole('button', { name: 'Confirm' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('The code is wrong or has expired');
    expect(onClose).not.toHaveBeenCalled();
    expect(useAuthStore.getState().user?.email).toBe('ada@example.test');
  });
});
