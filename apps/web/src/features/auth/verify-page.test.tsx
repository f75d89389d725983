import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { MantineProvider } from '@mantine/core';
import i18next from 'i18next';
import { I18nextProvider } from 'react-i18next';
import { MemoryRouter, Route, Routes } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { messages } from '@mooz/contract/messages';
import { useAuthStore } from '../../lib/auth-store';
import { VerifyPage } from './verify-page';

async function english() {
  const translation = JSON.parse(readFileSync(resolve(import.meta.dirname, '../../../public/locales/en/translation.json'), 'utf8')) as Record<string, string>;
  const instance = i18next.createInstance();
  await instance.init({ lng: 'en', resources: { en: { translation } }, interpolation: { escapeValue: false } });
  return instance;
}

const session = {
  access: 'access-token',
  refresh: 'refresh-token',
  user_type: 'student',
  is_trial: true,
  has_purchased: false,
  trial_ends_at: '2030-01-08T00:00:00.000Z',
  trial_remaining_seconds: 604_800,
  user: { id: 9, email: 'ada@example.test', first_name: 'Ada', last_name: 'Lovelace', user_type: 'student', role: 'student', ability: [] },
};

let answers: { status: number; body: unknown }[];
let sent: { url: string; body: unknown }[];
beforeEach(() => {
  sent = [];
  vi.stubGlobal('fetch', async (url: string, init: RequestInit = {}) => {
    sent.push({ url, body: init.body ? JSON.parse(String(init.body)) : undefined });
    const answer = answers.shift() ?? { status: 200, body: { data: null } };
    return new Response(JSON.stringify(answer.body), { status: answer.status });
  });
});
afterEach(() => {
  vi.unstubAllGlobals();
  useAuthStore.setState({ user: null, access: null, refresh: null });
});

async function open() {
  render(
    <I18nextProvider i18n={await english()}>
      <MantineProvider>
        <MemoryRouter initialEntries={['/verify?email=ada%40example.test&next=%2Fcourses%2F3']}>
          <Routes>
            <Route path="/verify" element={<VerifyPage />} />
            <Route path="/courses/3" element={<p>the course page</p>} />
          </Routes>
        </MemoryRouter>
      </MantineProvider>
    </I18nextProvider>,
  );
}

/** Types a whole code into the boxes, as a paste does; the sixth digit sends it. */
function typeCode(code: string) {
  const first = within(screen.getByTestId('otp-input')).getAllByRole('textbox')[0]!;
  fireEvent.change(first, { target: { value: code } });
}

const burned = { status: 400, body: { message: messages.codeBurned, errors: { otp: [messages.codeBurned] } } };

describe('the code screen', () => {
  it('signs the user in with the verify answer and takes them where they were going', async () => {
    answers = [{ status: 200, body: { data: session, message: messages.emailVerified } }];
    await open();
    typeCode('123456');
    expect(await screen.findByText('the course page')).toBeInTheDocument();
    expect(sent.map((call) => call.url)).toEqual(['/api/auth/verify-otp/']);
    expect(localStorage.getItem('accessToken')).toBe('access-token');
    expect(useAuthStore.getState().user).toMatchObject({ email: 'ada@example.test', user_type: 'student' });
  });

  it('keeps saying a burned code is burned, the right one included, and offers the resend with it', async () => {
    answers = [burned, burned];
    await open();
    for (const code of ['000000', '123456']) {
      typeCode(code);
      const failure = await screen.findByTestId('verify-failure');
      await waitFor(() => expect(failure).toHaveTextContent('Too many wrong attempts. Request a new code.'));
      expect(within(failure).getByTestId('resend-code')).toBeInTheDocument();
      expect(screen.getAllByTestId('resend-code')).toHaveLength(1);
    }
    expect(screen.queryByText('the course page')).toBeNull();
  });
});
