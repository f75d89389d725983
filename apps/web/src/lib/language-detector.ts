// The language to show, as i18next-browser-languagedetector found it with our options, in a few lines:
// ?lng=, the "i18next" cookie, local storage (storageKeys.language), session storage ("i18nextLng"),
// the browser's languages, then <html lang>; every candidate is handed to i18next, which picks the
// first supported one. The choice is kept in local storage. Codes outside i18next's safe shape
// (letters, digits, - _ @ ., no "..") are ignored, as the package does.
import type { LanguageDetectorModule } from 'i18next';

interface DetectionOptions {
  lookupQuerystring: string;
  lookupCookie: string;
  lookupLocalStorage: string;
  lookupSessionStorage: string;
}

const safeCode = (code: unknown): code is string =>
  typeof code === 'string' &&
  /^[A-Za-z0-9_@.-]{1,128}$/.test(code) &&
  !code.includes('..') &&
  !['__proto__', 'constructor', 'prototype'].includes(code);

function storage(kind: 'localStorage' | 'sessionStorage'): Storage | null {
  try {
    return window[kind];
  } catch {
    return null;
  }
}

function fromQuery(name: string): string | undefined {
  let { search } = window.location;
  const { hash } = window.location;
  if (!search && hash.includes('?')) search = hash.slice(hash.indexOf('?'));
  let found: string | undefined;
  for (const pair of search.slice(1).split('&')) {
    const at = pair.indexOf('=');
    if (at > 0 && pair.slice(0, at) === name) found = pair.slice(at + 1);
  }
  return found;
}

function fromCookie(name: string): string | undefined {
  try {
    for (const part of document.cookie.split(';')) {
      const cookie = part.trimStart();
      if (cookie.startsWith(`${name}=`)) return cookie.slice(name.length + 1) || undefined;
    }
  } catch {
    // Some environments throw on document.cookie.
  }
  return undefined;
}

function read(kind: 'localStorage' | 'sessionStorage', key: string): string | undefined {
  try {
    return storage(kind)?.getItem(key) || undefined;
  } catch {
    return undefined;
  }
}

export function createLanguageDetector(options: DetectionOptions): LanguageDetectorModule {
  return {
    type: 'languageDetector',
    detect() {
      const candidates = [
        fromQuery(options.lookupQuerystring),
        fromCookie(options.lookupCookie),
        read('localStorage', options.lookupLocalStorage),
        read('sessionStorage', options.lookupSessionStorage),
        ...(navigator.languages ?? []),
        navigator.language,
        document.documentElement.getAttribute('lang'),
      ];
      return candidates.filter(safeCode);
    },
    cacheUserLanguage(lng: string) {
      if (lng === 'cimode') return;
      try {
        storage('localStorage')?.setItem(options.lookupLocalStorage, lng);
      } catch {
        // Storage full or refused: the choice is simply not remembered.
      }
    },
  };
}
