import { renderHook } from '@testing-library/react';
import i18n from 'i18next';
import { afterEach, describe, expect, it } from 'vitest';
import { useLayoutPreferences } from '../../../lib/layout-preferences';
import { useKeepDocumentLanguage } from './keep-document-language';

describe('the whiteboard editor on the page', () => {
  afterEach(() => useLayoutPreferences.setState({ rtl: false }));

  it("cannot change <html>'s language or direction from what the app shows", async () => {
    await i18n.init({ lng: 'fr', supportedLngs: ['en', 'fr'], resources: { fr: { translation: {} } } });
    useLayoutPreferences.setState({ rtl: true });
    const root = document.documentElement;
    const { unmount } = renderHook(() => useKeepDocumentLanguage());
    expect(root.dir).toBe('rtl');
    // What Excalidraw does when it mounts in French.
    root.lang = 'fr-FR';
    root.dir = 'ltr';
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(root.lang).toBe('fr');
    expect(root.dir).toBe('rtl');
    unmount();
    root.dir = 'ltr';
    await new Promise((resolve) => setTimeout(resolve, 0));
    // Gone with the editor: the app's own changes are its own again.
    expect(root.dir).toBe('ltr');
  });
});
