// Boot: brand colours and saved layout on <html> first (no flash of the wrong skin or direction),
// then the app. The app (Mantine, providers, the router) is part of the entry, not a chunk of its own:
// as a lazy chunk it was a round trip of its own before the router could even ask for the route's
// chunks (entry, then app, then the route: three round trips on a phone's network).
import { StrictMode, Suspense } from 'react';
import { createRoot } from 'react-dom/client';
import './styles/base.css';
import { applyThemeColorVariables } from './lib/brand-colors';
import { applyLayoutToDocument, useLayoutPreferences } from './lib/layout-preferences';
import { LoadingScreen } from './app/loading-screen';
import App from './app/app';
import { fetchErrorPageWhenIdle } from './app/routes/route-error';
import { subscribeToTranslations, translationsUsable } from './lib/i18n';

// An old service worker would keep serving stale builds, so any registered one is removed at start.
async function unregisterServiceWorkers(): Promise<void> {
  if (!('serviceWorker' in navigator)) return;
  try {
    const registrations = await navigator.serviceWorker.getRegistrations();
    await Promise.all(registrations.map((registration) => registration.unregister()));
  } catch (error) {
    console.warn('Could not unregister service workers', error);
  }
}

void unregisterServiceWorkers();
applyThemeColorVariables(document.documentElement);
applyLayoutToDocument(useLayoutPreferences.getState());

const root = document.getElementById('root');
if (!root) throw new Error('The page has no #root element to mount Mooz into.');

/**
 * Resolves once the translations can be shown, or after `graceMs` (the app then shows its loading screen
 * until they can). The page asks for its language file with the HTML (the server's Link preload), so it is
 * usually there by the time this script has run: the first thing drawn is then the screen itself, not a
 * loading screen for a moment and the whole screen again in a second long task.
 */
function translationsOrGrace(graceMs: number): Promise<void> {
  return new Promise((resolve) => {
    if (translationsUsable()) return resolve();
    const timer = setTimeout(done, graceMs);
    const unsubscribe = subscribeToTranslations(() => {
      if (translationsUsable()) done();
    });
    function done() {
      clearTimeout(timer);
      unsubscribe();
      resolve();
    }
  });
}

void translationsOrGrace(400).then(() =>
  createRoot(root).render(
    <StrictMode>
      <Suspense fallback={<LoadingScreen />}>
        <App />
      </Suspense>
    </StrictMode>,
  ),
);
fetchErrorPageWhenIdle();
