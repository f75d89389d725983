// Boot: brand colours and saved layout on <html> first (no flash of the wrong skin or direction),
// then the loading screen while the app itself arrives as a separate chunk.
import { StrictMode, Suspense, lazy } from 'react';
import { createRoot } from 'react-dom/client';
import './styles/base.css';
import { applyThemeColorVariables } from './lib/brand-colors';
import { applyLayoutToDocument, useLayoutPreferences } from './lib/layout-preferences';
import { LoadingScreen } from './app/loading-screen';
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

const App = lazy(() => import('./app/app'));

const root = document.getElementById('root');
if (!root) throw new Error('The page has no #root element to mount Mooz into.');

createRoot(root).render(
  <StrictMode>
    <Suspense fallback={<LoadingScreen />}>
      <App />
    </Suspense>
  </StrictMode>,
);
