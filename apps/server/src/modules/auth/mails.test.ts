import { describe, expect, it } from 'vitest';
import { languages, limits } from '@mooz/contract/limits';
import { codeMail, mailCatalogues } from './mails';

describe('mail catalogues', () => {
  it('give the four languages the same keys', () => {
    const keysOf = (lng: (typeof languages)[number]) => Object.keys(mailCatalogues[lng]).sort();
    for (const lng of languages) expect(keysOf(lng), lng).toEqual(keysOf('en'));
  });

  it('hold only non-empty text (flat keys, no nested objects)', () => {
    for (const lng of languages) {
      for (const value of Object.values(mailCatalogues[lng]))
        expect(typeof value === 'string' && value.trim() !== '').toBe(true);
    }
  });
});

describe('code mails', () => {
  it('state how long the code lasts, from the contract limit, in the recipient language', () => {
    const mail = codeMail({
      to: 'ana@example.com',
      firstName: 'Ana',
      code: '012345',
      purpose: 'reset',
      language: 'pt',
    });
    expect(mail.subject).toBe('O seu código para redefinir a senha Mooz');
    expect(mail.text).toContain(`O código expira em ${limits.otpTtlSeconds / 60} minutos.`);
    expect(mail.text).toContain('Olá Ana,');
    expect(mail.text).toContain('012345');
  });

  it('falls back to English for a language it does not have, and escapes the name in HTML', () => {
    const mail = codeMail({
      to: 'x@example.com',
      firstName: '<Ada>',
      code: '999999',
      purpose: 'verify',
      language: 'es',
    });
    expect(mail.subject).toBe('Your Mooz verification code');
    expect(mail.text).toContain('Hello <Ada>,');
    expect(mail.html).toContain('Hello &#60;Ada&#62;,');
  });
});
