// Excalidraw writes its own language and direction on <html> (lang "fr-FR", dir "ltr" for French) when
// it mounts or its language changes, which would turn a right-to-left page left-to-right and misname
// its language for screen readers. While the editor is on the page, <html> is put back as the app says.
import { useEffect } from 'react';
import i18n from 'i18next';
import { directionOf, useLayoutPreferences } from '../../../lib/layout-preferences';

function restoreDocumentLanguage(root = document.documentElement) {
  const lang = i18n.resolvedLanguage ?? i18n.language;
  const dir = directionOf(useLayoutPreferences.getState().rtl);
  if (lang && root.lang !== lang) root.lang = lang;
  if (root.dir !== dir) root.dir = dir;
}

export function useKeepDocumentLanguage() {
  useEffect(() => {
    const root = document.documentElement;
    const observer = new MutationObserver(() => restoreDocumentLanguage(root));
    observer.observe(root, { attributes: true, attributeFilter: ['lang', 'dir'] });
    restoreDocumentLanguage(root);
    return () => {
      observer.disconnect();
      restoreDocumentLanguage(root);
    };
  }, []);
}
