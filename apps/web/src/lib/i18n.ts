// Translations: four languages (English the default and fallback), flat keys, one JSON per language
// over HTTP (lib/i18n-backend.ts), detection (lib/language-detector.ts) by query parameter lng, cookie, local storage, session storage, browser language,
// then <html lang> (cached in local storage), and retries of failed reads (i18next retries with a doubling delay: it calls
// read(..., tried + 1, wait * 2) in its BackendConnector). A file that never loads is only a warning.
import i18n from 'i18next';
import { initReactI18next } from 'react-i18next';
import { defaultLanguage, languages, limits } from '@mooz/contract/limits';
import { storageKeys } from '@mooz/contract/config';
import { isolateTranslations } from './bidi';
import { FetchBackend, type FetchBackendOptions } from './i18n-backend';
import { createLanguageDetector } from './language-detector';

export const languageNames: Record<(typeof languages)[number], string> = {
  en: 'English',
  fr: 'Français',
  de: 'Deutsch',
  pt: 'Português',
};

i18n.on('failedLoading', (lng, ns, message) => {
  console.warn(`Translations for "${lng}" (${ns}) could not be loaded; showing ${defaultLanguage}.`, message);
});

// <html lang> names the language actually shown ("fr", not the browser's "fr-CA").
i18n.on('languageChanged', (lng) => {
  if (typeof document !== 'undefined') document.documentElement.lang = i18n.resolvedLanguage ?? lng;
});

void i18n
  .use(FetchBackend)
  .use(
    createLanguageDetector({
      lookupQuerystring: 'lng',
      lookupCookie: 'i18next',
      lookupLocalStorage: storageKeys.language,
      lookupSessionStorage: 'i18nextLng',
    }),
  )
  .use(initReactI18next)
  .use(isolateTranslations)
  .init<FetchBackendOptions>({
    postProcess: [isolateTranslations.name],
    supportedLngs: [...languages],
    fallbackLng: defaultLanguage,
    load: 'languageOnly',
    nonExplicitSupportedLngs: true,
    keySeparator: false,
    nsSeparator: false,
    returnEmptyString: false,
    interpolation: { escapeValue: false },
    maxRetries: limits.i18nRetries,
    retryTimeout: limits.i18nRetryBaseMs,
    maxParallelReads: limits.i18nMaxParallelReads,
    backend: { loadPath: '/locales/{{lng}}/translation.json' },
    // The UI renders with the English fallback while a slow language file is still retrying,
    // and re-renders when it arrives, instead of suspending behind the loader for seconds.
    react: { useSuspense: false, bindI18n: 'languageChanged loaded' },
  })
  .catch((error: unknown) => {
    console.warn('Translations failed to initialise; the interface shows its built-in text.', error);
  });

export default i18n;

/**
 * True once there is something sensible to show: the chosen language, or the English fallback
 * while the chosen one is still retrying, or nothing more to wait for (every read settled).
 */
export function translationsUsable(): boolean {
  if (i18n.isInitialized) return true;
  const lng = i18n.resolvedLanguage ?? i18n.language;
  return (
    (Boolean(lng) && i18n.hasResourceBundle(lng, 'translation')) ||
    i18n.hasResourceBundle(defaultLanguage, 'translation') ||
    fallbackFailed
  );
}

let fallbackFailed = false;
i18n.on('failedLoading', (lng) => {
  if (lng === defaultLanguage) fallbackFailed = true;
});

export function subscribeToTranslations(notify: () => void): () => void {
  const events = ['loaded', 'failedLoading', 'initialized', 'languageChanged'] as const;
  for (const event of events) i18n.on(event, notify);
  return () => {
    for (const event of events) i18n.off(event, notify);
  };
}
