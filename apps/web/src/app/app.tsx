// The lazily loaded part of the app: Mantine, providers and the router.
// Only the stylesheets of what the login screen shows (in @mantine/core/styles.css's order); later screens
// import styles/mantine-more.ts.
import '@mantine/core/styles/baseline.css';
import '@mantine/core/styles/global.css';
import '@mantine/core/styles/default-css-variables.css';
import '@mantine/core/styles/UnstyledButton.css';
import '@mantine/core/styles/Paper.css';
import '@mantine/core/styles/Loader.css';
import '@mantine/core/styles/ActionIcon.css';
import '@mantine/core/styles/CloseButton.css';
import '@mantine/core/styles/Group.css';
import '@mantine/core/styles/Input.css';
import '@mantine/core/styles/Alert.css';
import '@mantine/core/styles/Text.css';
import '@mantine/core/styles/Anchor.css';
import '@mantine/core/styles/Button.css';
import '@mantine/core/styles/PasswordInput.css';
import '@mantine/core/styles/Stack.css';
import '@mantine/core/styles/ThemeIcon.css';
import '@mantine/core/styles/Title.css';
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
