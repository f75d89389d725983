import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { fireEvent, render, screen } from '@testing-library/react';
import { MantineProvider } from '@mantine/core';
import i18next from 'i18next';
import { I18nextProvider } from 'react-i18next';
import { MemoryRouter } from 'react-router';
import { describe, expect, it } from 'vitest';
import { fillMessage, messages } from '@mooz/contract/messages';
import { ApiError } from '../../lib/api';
import { LoginForm } from './login-page';

async function french() {
  const translation = JSON.parse(readFileSync(resolve(import.meta.dirname, '../../../public/locales/fr/translation.json'), 'utf8')) as Record<string, string>;
  const instance = i18next.createInstance();
  await instance.init({ lng: 'fr', resources: { fr: { translation } }, interpolation: { escapeValue: false } });
  return instance;
}

describe('the login form', () => {
  it('shows the server’s 429 message with the wait, in the user’s language', async () => {
    const sent = fillMessage(messages.tooManyFailuresSeconds, { seconds: 30 });
    render(
      <I18nextProvider i18n={await french()}>
        <MantineProvider>
          <MemoryRouter>
            <LoginForm
              initialEmail="ada@example.test"
              onSubmit={() => Promise.reject(new ApiError(sent, 429, { message: sent }))}
            />
          </MemoryRouter>
        </MantineProvider>
      </I18nextProvider>,
    );
    fireEvent.change(screen.getByLabelText(/mot de passe/i), { target: { value: 'a wrong password' } });
    fireEvent.submit(screen.getByTestId('login-form'));
    expect(await screen.findByTestId('login-error')).toHaveTextContent('Trop de tentatives échouées. Réessayez dans 30 s.');
  });
});
