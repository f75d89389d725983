// The page's translations asked for with the page: a Link preload header on the app's HTML, so a first
// visit fetches its language file beside the entry script instead of after it has run (the app draws
// nothing worth reading before its translations). A hint only: the browser's own detection
// (apps/web/src/lib/language-detector.ts) still decides, and a wrong guess costs one unused file.
import { defaultLanguage, languages, type Language } from '@mooz/contract/limits';

const supported = (code: string | undefined): Language | undefined => {
  const primary = code?.trim().toLowerCase().split(/[-_]/)[0];
  return languages.find((language) => language === primary);
};

/** Accept-Language's languages, most wanted first ("fr-CA,fr;q=0.9,en;q=0.8"). */
function acceptedLanguages(header: string | undefined): string[] {
  if (!header) return [];
  return header
    .split(',')
    .map((part, index) => {
      const [tag = '', ...params] = part.split(';');
      const q = params.map((param) => param.trim()).find((param) => param.startsWith('q='));
      return { tag: tag.trim(), weight: q ? Number(q.slice(2)) : 1, index };
    })
    .filter((entry) => entry.tag && entry.weight > 0)
    .sort((a, b) => b.weight - a.weight || a.index - b.index)
    .map((entry) => entry.tag);
}

function cookieValue(header: string | undefined, name: string): string | undefined {
  for (const part of header?.split(';') ?? []) {
    const [key, ...value] = part.trim().split('=');
    if (key === name) return value.join('=');
  }
  return undefined;
}

/** The language the page will most likely show, guessed as the browser's detection would from what it sends. */
function likelyLanguage(url: string, headers: { cookie?: string; 'accept-language'?: string }): Language {
  const query = new URL(url, 'http://mooz.invalid').searchParams.get('lng') ?? undefined;
  const candidates = [query, cookieValue(headers.cookie, 'i18next'), ...acceptedLanguages(headers['accept-language'])];
  for (const candidate of candidates) {
    const language = supported(candidate);
    if (language) return language;
  }
  return defaultLanguage;
}

/**
 * The Link header for the app's HTML: the likely language's file and the default one, which the app
 * loads as its fallback whatever the language.
 */
export function translationPreloads(url: string, headers: { cookie?: string; 'accept-language'?: string }): string {
  const wanted = new Set([likelyLanguage(url, headers), defaultLanguage]);
  return [...wanted]
    .map((language) => `</locales/${language}/translation.json>; rel=preload; as=fetch; crossorigin`)
    .join(', ');
}
