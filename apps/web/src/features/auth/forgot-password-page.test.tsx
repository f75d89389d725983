import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { MantineProvider } from '@mantine/core';
import i18next from 'i18next';
import { I18nextProvider } from 'react-i18next';
import { MemoryRouter } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { messages } from '@mooz/contract/messages';
import { ForgotPasswordPage } from './forgot-password-page';

async function english() {
  const translation = JSON.parse(readFileSync(resolve(import.meta.dirname, '../../../public/locales/en/translation.json'), 'utf8')) as Record<string, string>;
  const instance = i18next.createInstance();
  await instance.init({ lng: 'en', resources: { en: { translation } }, interpolation: { escapeValue: false } });
  return instance;
}

afterEach(() => vi.unstubAllGlobals());

describe('the password reset code', () => {
  it('when burned, keeps saying so and offers the resend with the message', async () => {
    const burned = { message: messages.codeBurned, errors: { otp: [messages.codeBurned] } };
    vi.stubGlobal('fetch', async (_url: string, init: RequestInit = {}) => {
      const body = JSON.parse(String(init.body)) as { otp?: string };
      return body.otp ? new Response(JSON.stringify(burned), { status: 400 }) : new Response(JSON.stringify({ data: null }), { status: 200 });
    });
    render(
      <I18nextProvider i18n={await english()}>
        <MantineProvider>
          <MemoryRouter>
            <ForgotPasswordPage />
          </MemoryRouter>
        </MantineProvider>
      </I18nextProvider>,
    );
    fireEvent.change(screen.getByLabelText('Email'), { target: { value: 'ada@example.test' } });
    fireEvent.click(screen.getByRole('button', { name: 'Send code' }));
    const boxes = await screen.findAllByRole('textbox', { name: /digit/i });
    fireEvent.change(boxes[0]!, { target: { value: '123456' } });
    fireEvent.change(screen.getByLabelText(/^New password/), { target: { value: 'a-new-password' } });
    fireEvent.change(screen.getByLabelText(/^Repeat the password/), { target: { value: 'a-new-password' } });
    for (let i = 0; i < 2; i++) {
      fireEvent.click(screen.getByRole('button', { name: 'Set new password' }));
      const failure = await screen.findByTestId('forgot-failure');
      await waitFor(() => expect(failure).toHaveTextContent('Too many wrong attempts. Request a new code.'));
      expect(within(failure).getByTestId('resend-code')).toBeInTheDocument();
      expect(screen.getAllByTestId('resend-code')).toHaveLength(1);
    }
  });
});
