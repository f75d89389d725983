import { afterEach, describe, expect, it, vi } from 'vitest';
import { createLanguageDetector } from './language-detector';

const options = {
  lookupQuerystring: 'lng',
  lookupCookie: 'i18next',
  lookupLocalStorage: 'mooz-language',
  lookupSessionStorage: 'i18nextLng',
};

describe('language detector', () => {
  afterEach(() => {
    window.history.replaceState(null, '', '/');
    document.cookie = 'i18next=; Max-Age=0; Path=/';
    sessionStorage.clear();
    document.documentElement.removeAttribute('lang');
    vi.restoreAllMocks();
  });

  it('offers ?lng=, the cookie, local and session storage, the browser, then <html lang>, in that order', () => {
    window.history.replaceState(null, '', '/login?next=%2Fcourses&lng=pt');
    document.cookie = 'i18next=de; Path=/';
    localStorage.setItem('mooz-language', 'fr');
    sessionStorage.setItem('i18nextLng', 'en-GB');
    vi.spyOn(navigator, 'languages', 'get').mockReturnValue(['fr-CA', 'en']);
    vi.spyOn(navigator, 'language', 'get').mockReturnValue('fr-CA');
    document.documentElement.lang = 'de';
    expect(createLanguageDetector(options).detect()).toEqual(['pt', 'de', 'fr', 'en-GB', 'fr-CA', 'en', 'fr-CA', 'de']);
  });

  it('skips what is missing and ignores codes that are not language codes', () => {
    window.history.replaceState(null, '', '/login?lng=%3Cb%3E');
    localStorage.setItem('mooz-language', '" onmouseover="x()');
    vi.spyOn(navigator, 'languages', 'get').mockReturnValue(['de']);
    vi.spyOn(navigator, 'language', 'get').mockReturnValue('de');
    expect(createLanguageDetector(options).detect()).toEqual(['de', 'de']);
  });

  it('keeps the chosen language in local storage', () => {
    const detector = createLanguageDetector(options);
    detector.cacheUserLanguage?.('fr');
    expect(localStorage.getItem('mooz-language')).toBe('fr');
    detector.cacheUserLanguage?.('cimode');
    expect(localStorage.getItem('mooz-language')).toBe('fr');
  });
});
