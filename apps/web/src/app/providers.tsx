import { useEffect, useRef, type ReactNode } from 'react';
import { DirectionProvider, MantineProvider, useDirection } from '@mantine/core';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { Toaster } from 'react-hot-toast';
import { AbilityContext, appAbility } from '../lib/ability';
import i18n from '../lib/i18n';
import { applyLayoutToDocument, directionOf, useLayoutPreferences } from '../lib/layout-preferences';
import { cssVariablesResolver, theme } from '../lib/theme';
import { toastDurations, useToastLimit } from '../lib/toasts';

const queryClient = new QueryClient({
  defaultOptions: { queries: { retry: 1, refetchOnWindowFocus: false, staleTime: 30_000 } },
});

/** Keeps Mantine's direction (and so every mirrored component) in step with the stored preference. */
function DirectionSync() {
  const rtl = useLayoutPreferences((state) => state.rtl);
  const skin = useLayoutPreferences((state) => state.skin);
  const { setDirection } = useDirection();
  useEffect(() => {
    setDirection(directionOf(rtl));
    applyLayoutToDocument({ rtl, skin });
  }, [rtl, skin, setDirection]);
  // Translations are isolated only in right-to-left layouts (lib/bidi.ts): a new direction
  // re-renders every translated text, as a new language would.
  const shownDirection = useRef(rtl);
  useEffect(() => {
    if (shownDirection.current === rtl) return;
    shownDirection.current = rtl;
    if (i18n.isInitialized) i18n.emit('languageChanged', i18n.resolvedLanguage ?? i18n.language);
  }, [rtl]);
  return null;
}

function Toasts() {
  const position = useLayoutPreferences((state) => state.toastPosition);
  useToastLimit();
  return (
    <Toaster
      position={position}
      toastOptions={{
        success: { duration: toastDurations.success },
        error: { duration: toastDurations.error },
        blank: { duration: toastDurations.blank },
        loading: { duration: toastDurations.loading },
        className: 'mooz-toast',
      }}
    />
  );
}

export function AppProviders({ children }: { children: ReactNode }) {
  const skin = useLayoutPreferences((state) => state.skin);
  const rtl = useLayoutPreferences((state) => state.rtl);
  return (
    <DirectionProvider initialDirection={directionOf(rtl)} detectDirection={false}>
      <MantineProvider theme={theme} forceColorScheme={skin} cssVariablesResolver={cssVariablesResolver}>
        <DirectionSync />
        <QueryClientProvider client={queryClient}>
          <AbilityContext.Provider value={appAbility}>
            {children}
            <Toasts />
          </AbilityContext.Provider>
        </QueryClientProvider>
      </MantineProvider>
    </DirectionProvider>
  );
}
