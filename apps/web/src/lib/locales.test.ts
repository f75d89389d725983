import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { languages } from '@mooz/contract/limits';
import { messages, validationMessages } from '@mooz/contract/messages';

const localesDir = resolve(import.meta.dirname, '../../public/locales');
const translations = Object.fromEntries(
  languages.map((lng) => [
    lng,
    JSON.parse(readFileSync(resolve(localesDir, lng, 'translation.json'), 'utf8')) as Record<string, unknown>,
  ]),
);
const allKeys = [...new Set(Object.values(translations).flatMap((file) => Object.keys(file)))].sort();

describe('translation files', () => {
  it.each(languages)('%s has every key used by any language', (lng) => {
    const missing = allKeys.filter((key) => !(key in translations[lng]!));
    expect(missing).toEqual([]);
  });

  it.each(languages)('%s has no empty or non-text value', (lng) => {
    const empty = Object.entries(translations[lng]!)
      .filter(([, value]) => typeof value !== 'string' || value.trim() === '')
      .map(([key]) => key);
    expect(empty).toEqual([]);
  });

  it('uses flat keys (no nested objects)', () => {
    for (const file of Object.values(translations)) {
      for (const value of Object.values(file)) expect(typeof value).toBe('string');
    }
  });

  it('translates every user-facing message of the contract', () => {
    const missing = Object.keys(messages).filter((key) => !(`messages.${key}` in translations.en!));
    expect(missing).toEqual([]);
  });

  it('translates every field validation message of the contract', () => {
    const missing = Object.keys(validationMessages).filter((key) => !(`validation.${key}` in translations.en!));
    expect(missing).toEqual([]);
  });

  it.each(languages.filter((lng) => lng !== 'en'))('%s is a real translation, not a copy of English', (lng) => {
    const same = allKeys.filter((key) => translations[lng]![key] === translations.en![key]);
    // A few words are the same in several languages (Dashboard, Notifications, Profil…).
    expect(same.length / allKeys.length).toBeLessThan(0.15);
  });
});
