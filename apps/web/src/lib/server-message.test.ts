import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import i18next from 'i18next';
import { describe, expect, it } from 'vitest';
import { fillMessage, messages } from '@mooz/contract/messages';
import { translateServerMessage } from './server-message';

async function translator(lng: string) {
  const translation = JSON.parse(readFileSync(resolve(import.meta.dirname, `../../public/locales/${lng}/translation.json`), 'utf8')) as Record<string, string>;
  const instance = i18next.createInstance();
  await instance.init({ lng, resources: { [lng]: { translation } }, interpolation: { escapeValue: false } });
  return instance.t;
}

describe('server messages in the user language', () => {
  it('translates a fixed message by its English text', async () => {
    expect(translateServerMessage(await translator('fr'), messages.invalidCredentials)).toBe('E-mail ou mot de passe incorrect');
  });

  it('finds a filled-in message by its template and keeps the wait it names', async () => {
    const sent = fillMessage(messages.tooManyFailuresSeconds, { seconds: 30 });
    expect(sent).toBe('Too many failed attempts. Try again in 30 s.');
    expect(translateServerMessage(await translator('fr'), sent)).toBe('Trop de tentatives échouées. Réessayez dans 30 s.');
    expect(translateServerMessage(await translator('de'), fillMessage(messages.tooManyFailuresMinutes, { minutes: 4 }))).toBe(
      'Zu viele fehlgeschlagene Versuche. Versuchen Sie es in 4 Min. erneut.',
    );
    expect(translateServerMessage(await translator('en'), sent)).toBe(sent);
  });

  it('passes an unknown message through', async () => {
    expect(translateServerMessage(await translator('pt'), 'Something new')).toBe('Something new');
  });
});
