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
import './lib/i18n';

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

createRoot(root).render(
  <StrictMode>
    <Suspense fallback={<LoadingScreen />}>
      <App />
    </Suspense>
  </StrictMode>,
);
