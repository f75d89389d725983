import { beforeEach, describe, expect, it } from 'vitest';
import { storageKeys } from '@mooz/contract/config';
import { applyLayoutToDocument, layoutDefaults, useLayoutPreferences } from './layout-preferences';

describe('layout preferences', () => {
  beforeEach(() => {
    useLayoutPreferences.setState(layoutDefaults);
    localStorage.clear();
  });

  it('starts with the specification defaults', () => {
    expect(layoutDefaults).toEqual({
      skin: 'light',
      rtl: false,
      menuCollapsed: false,
      layout: 'vertical',
      contentWidth: 'boxed',
      navbarType: 'floating',
      footerType: 'static',
      toastPosition: 'top-right',
    });
    expect(useLayoutPreferences.getState()).toMatchObject(layoutDefaults);
  });

  it('persists a change under the layout storage key', () => {
    useLayoutPreferences.getState().set({ skin: 'dark', rtl: true, toastPosition: 'bottom-left' });
    const stored = JSON.parse(localStorage.getItem(storageKeys.layout) ?? '{}') as { state: Record<string, unknown> };
    expect(stored.state).toMatchObject({ skin: 'dark', rtl: true, toastPosition: 'bottom-left', menuCollapsed: false });
  });

  it('restores stored preferences when the page loads again', async () => {
    localStorage.setItem(
      storageKeys.layout,
      JSON.stringify({ state: { ...layoutDefaults, skin: 'dark', menuCollapsed: true }, version: 1 }),
    );
    await useLayoutPreferences.persist.rehydrate();
    expect(useLayoutPreferences.getState()).toMatchObject({ skin: 'dark', menuCollapsed: true, rtl: false });
  });

  it('toggles the skin and the menu, and resets to the defaults', () => {
    const store = useLayoutPreferences.getState();
    store.toggleSkin();
    store.toggleMenuCollapsed();
    expect(useLayoutPreferences.getState()).toMatchObject({ skin: 'dark', menuCollapsed: true });
    useLayoutPreferences.getState().reset();
    expect(useLayoutPreferences.getState()).toMatchObject(layoutDefaults);
  });

  it('mirrors skin and direction onto the html element', () => {
    applyLayoutToDocument({ skin: 'dark', rtl: true });
    expect(document.documentElement).toHaveAttribute('data-mantine-color-scheme', 'dark');
    expect(document.documentElement).toHaveAttribute('dir', 'rtl');
    applyLayoutToDocument({ skin: 'light', rtl: false });
    expect(document.documentElement).toHaveAttribute('dir', 'ltr');
  });
});
