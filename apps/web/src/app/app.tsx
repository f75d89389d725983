// The lazily loaded part of the app: Mantine, providers and the router.
import '@mantine/core/styles.css';
import './app.css';
import { useSyncExternalStore } from 'react';
import { RouterProvider } from 'react-router';
import { AppProviders } from './providers';
import { router } from './router';
import { LoadingScreen } from './loading-screen';
import { subscribeToTranslations, translationsUsable } from '../lib/i18n';

export default function App() {
  const ready = useSyncExternalStore(subscribeToTranslations, translationsUsable);
  if (!ready) return <LoadingScreen />;
  return (
    <AppProviders>
      <RouterProvider router={router} />
    </AppProviders>
  );
}
