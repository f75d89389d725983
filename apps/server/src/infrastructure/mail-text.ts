// The words of every mail, in the recipient's language when known (English otherwise): catalogues like
// the web app's, apps/server/locales/{lng}/mail.json, flat keys, read by one i18next instance of the
// server's own. The modules that write mails (account codes, session changes) take their text here.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import i18next, { type TFunction } from 'i18next';
import { defaultLanguage, languages, type Language } from '@mooz/contract/limits';

const localesDir = path.resolve(import.meta.dirname, '../../locales');

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

/** A language we write mails in: the user's when we have it, else the default. */
export const mailLanguage = (language: string | null | undefined): Language =>
  (languages as readonly string[]).includes(language ?? '') ? (language as Language) : defaultLanguage;

/** The mail words in the user's language. */
export const mailTranslator = (language: string | null | undefined): TFunction => i18n.getFixedT(mailLanguage(language));

export const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
