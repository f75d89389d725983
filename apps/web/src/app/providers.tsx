// What every screen has: Mantine with the stored direction and skin, and the toasts' host. TanStack
// Query comes with the screens that use it (app/query-root.tsx), the CASL ability with its first
// reader (lib/ability.tsx: its context's default value is the app's ability), the toasts' library and
// host with the first toast: none of them is drawn on the login screen.
import { Suspense, lazy, useEffect, useRef, type ReactNode } from 'react';
import { DirectionProvider, MantineProvider, useDirection } from '@mantine/core';
import i18n from '../lib/i18n';
import { applyLayoutToDocument, directionOf, useLayoutPreferences } from '../lib/layout-preferences';
import { cssVariablesResolver, theme } from '../lib/theme';
import { useToasterWanted } from '../lib/toasts';

const Toaster = lazy(() => import('./toaster'));

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

/**
 * The Toaster, once a toast is asked for: through notify, or by the meeting, which calls react-hot-toast
 * itself and says so when it loads (lib/toasts.ts, wantToaster).
 */
function Toasts() {
  const wanted = useToasterWanted();
  if (!wanted) return null;
  return (
    <Suspense fallback={null}>
      <Toaster />
    </Suspense>
  );
}

export function AppProviders({ children }: { children: ReactNode }) {
  const skin = useLayoutPreferences((state) => state.skin);
  const rtl = useLayoutPreferences((state) => state.rtl);
  return (
    <DirectionProvider initialDirection={directionOf(rtl)} detectDirection={false}>
      <MantineProvider theme={theme} forceColorScheme={skin} cssVariablesResolver={cssVariablesResolver}>
        <DirectionSync />
        {children}
        <Toasts />
      </MantineProvider>
    </DirectionProvider>
  );
}
