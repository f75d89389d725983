// Layout preferences (skin, direction, menu, layout, content width, navbar, footer, toast position; the
// defaults are layoutDefaults below), persisted under storageKeys.layout so they survive reloads.
import { create } from 'zustand';
import { createJSONStorage, persist } from 'zustand/middleware';
import { storageKeys } from '@mooz/contract/config';

export type Skin = 'light' | 'dark';
export type ToastPosition = 'top-left' | 'top-center' | 'top-right' | 'bottom-left' | 'bottom-center' | 'bottom-right';
export const toastPositions: ToastPosition[] = [
  'top-left',
  'top-center',
  'top-right',
  'bottom-left',
  'bottom-center',
  'bottom-right',
];

export interface LayoutPreferences {
  skin: Skin;
  rtl: boolean;
  menuCollapsed: boolean;
  layout: 'vertical' | 'horizontal';
  contentWidth: 'boxed' | 'full';
  navbarType: 'floating' | 'sticky' | 'static' | 'hidden';
  footerType: 'static' | 'sticky' | 'hidden';
  toastPosition: ToastPosition;
}

export const layoutDefaults: LayoutPreferences = {
  skin: 'light',
  rtl: false,
  menuCollapsed: false,
  layout: 'vertical',
  contentWidth: 'boxed',
  navbarType: 'floating',
  footerType: 'static',
  toastPosition: 'top-right',
};

interface LayoutActions {
  set: (change: Partial<LayoutPreferences>) => void;
  toggleSkin: () => void;
  toggleMenuCollapsed: () => void;
  reset: () => void;
}

type LayoutStore = LayoutPreferences & LayoutActions;

export const useLayoutPreferences = create<LayoutStore>()(
  persist(
    (set) => ({
      ...layoutDefaults,
      set: (change) => set(change),
      toggleSkin: () => set((state) => ({ skin: state.skin === 'dark' ? 'light' : 'dark' })),
      toggleMenuCollapsed: () => set((state) => ({ menuCollapsed: !state.menuCollapsed })),
      reset: () => set(layoutDefaults),
    }),
    {
      name: storageKeys.layout,
      version: 1,
      storage: createJSONStorage(() => localStorage),
      partialize: (state): LayoutPreferences => ({
        skin: state.skin,
        rtl: state.rtl,
        menuCollapsed: state.menuCollapsed,
        layout: state.layout,
        contentWidth: state.contentWidth,
        navbarType: state.navbarType,
        footerType: state.footerType,
        toastPosition: state.toastPosition,
      }),
    },
  ),
);

export const directionOf = (rtl: boolean): 'rtl' | 'ltr' => (rtl ? 'rtl' : 'ltr');

/** Mirror the preferences onto <html> so CSS, Mantine and the loading screen agree before React paints. */
export function applyLayoutToDocument(
  preferences: Pick<LayoutPreferences, 'skin' | 'rtl'>,
  root = document.documentElement,
): void {
  root.setAttribute('data-mantine-color-scheme', preferences.skin);
  root.dir = directionOf(preferences.rtl);
  root.style.colorScheme = preferences.skin;
}
