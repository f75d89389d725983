// The account mails, in the user's language when known (English otherwise), as plain text and HTML.
// Their words are catalogues like the web app's: apps/server/locales/{lng}/mail.json, flat keys,
// read by one i18next instance of the server's own.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import i18next from 'i18next';
import { defaultLanguage, languages, limits, type Language } from '@mooz/contract/limits';
import type { Mail } from '../../infrastructure/mail';

type Purpose = 'verify' | 'reset';

const localesDir = path.resolve(import.meta.dirname, '../../../locales');

/** The mail catalogue of each language, as its JSON file holds it. */
export const mailCatalogues = Object.fromEntries(
  languages.map((lng) => [lng, JSON.parse(readFileSync(path.join(localesDir, lng, 'mail.json'), 'utf8')) as Record<string, string>]),
) as Record<Language, Record<string, string>>;

const i18n = i18next.createInstance();
// Resources are in memory, so initialisation is synchronous (initAsync: false).
void i18n.init({
  resources: Object.fromEntries(languages.map((lng) => [lng, { mail: mailCatalogues[lng] }])),
  supportedLngs: [...languages],
  fallbackLng: defaultLanguage,
  ns: ['mail'],
  defaultNS: 'mail',
  keySeparator: false,
  nsSeparator: false,
  returnEmptyString: false,
  // Values go into plain text as they are; the HTML part escapes its own.
  interpolation: { escapeValue: false },
  initAsync: false,
});

const escape = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

export function codeMail(options: { to: string; firstName: string; code: string; purpose: Purpose; language?: string | null }): Mail {
  const lng = (languages as readonly string[]).includes(options.language ?? '') ? (options.language as Language) : defaultLanguage;
  const t = i18n.getFixedT(lng);
  const greeting = t('greeting', { name: options.firstName });
  const intro = t(`${options.purpose}.intro`);
  const expires = t('code.expires', { minutes: limits.otpTtlSeconds / 60 });
  const ignore = t('code.ignore');
  return {
    to: options.to,
    subject: t(`${options.purpose}.subject`),
    text: `${greeting}\n\n${intro}\n\n${options.code}\n\n${expires}\n${ignore}\n`,
    html: `<p>${escape(greeting)}</p><p>${escape(intro)}</p>
<p style="font-size:28px;font-weight:700;letter-spacing:6px;font-family:monospace">${options.code}</p>
<p>${escape(expires)}<br>${escape(ignore)}</p>`,
  };
}
