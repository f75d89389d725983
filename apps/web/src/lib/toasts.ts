// Toasts with fixed durations (success 2 s, error and plain 4 s, loading until dismissed: limits.toast*)
// and at most 20 visible at once (app/toaster.tsx).
// react-hot-toast and its Toaster are not part of the first visit: the library loads with the first
// toast (or with the meeting, which calls it itself: wantToaster), and notify's calls made before it
// arrives run in order as soon as it does. notify names each toast itself, so an id is returned at once.
import { useEffect, useSyncExternalStore } from 'react';
import type { ToastOptions } from 'react-hot-toast';
import { limits } from '@mooz/contract/limits';

export const toastDurations = {
  success: limits.toastSuccessMs,
  error: limits.toastErrorMs,
  blank: limits.toastPlainMs,
  loading: Infinity,
} as const;

/**
 * The CSS property, set on the page's root, by which toasts at the bottom of the screen stand higher:
 * the meeting's controls bar sets it to its height while it is shown, so no toast covers a control.
 */
export const TOAST_LIFT_PROPERTY = '--mooz-toast-lift';

/**
 * Its twin at the top: the app's header sets it to its height, so toasts at the top of the screen show
 * below the header instead of over its account menu and search.
 */
export const TOAST_DROP_PROPERTY = '--mooz-toast-drop';

/** Toasts at the top stand below a header of `height` (a CSS length) while the caller is mounted. */
export function useToastsBelow(height: string): void {
  useEffect(() => {
    const root = document.documentElement;
    root.style.setProperty(TOAST_DROP_PROPERTY, height);
    return () => {
      root.style.removeProperty(TOAST_DROP_PROPERTY);
    };
  }, [height]);
}

type HotToast = typeof import('react-hot-toast');
let library: HotToast | null = null;
let arriving: Promise<HotToast> | null = null;

/** react-hot-toast, loaded once. */
export function loadToastLibrary(): Promise<HotToast> {
  arriving ??= import('react-hot-toast').then((module) => (library = module));
  return arriving;
}

let toasterWanted = false;
const listeners = new Set<() => void>();

/** True once a toast has been asked for: the Toaster is then mounted. */
export function useToasterWanted(): boolean {
  return useSyncExternalStore(
    (notify) => {
      listeners.add(notify);
      return () => listeners.delete(notify);
    },
    () => toasterWanted,
  );
}

/** Mounts the Toaster (app/providers.tsx) for whoever calls react-hot-toast without notify. */
export function wantToaster(): void {
  if (toasterWanted) return;
  toasterWanted = true;
  for (const listener of listeners) listener();
}

function withLibrary(action: (hot: HotToast) => void): void {
  wantToaster();
  if (library) action(library);
  else void loadToastLibrary().then(action);
}

let lastId = 0;
function show(kind: 'success' | 'error' | 'blank' | 'loading', message: string, options: ToastOptions): string {
  const id = options.id ?? `mooz-toast-${++lastId}`;
  withLibrary(({ default: toast }) => {
    if (kind === 'blank') toast(message, { ...options, id });
    else toast[kind](message, { ...options, id });
  });
  return id;
}

export const notify = {
  success: (message: string, options?: ToastOptions) =>
    show('success', message, { duration: toastDurations.success, ...options }),
  error: (message: string, options?: ToastOptions) =>
    show('error', message, { duration: toastDurations.error, ...options }),
  info: (message: string, options?: ToastOptions) =>
    show('blank', message, { duration: toastDurations.blank, ...options }),
  loading: (message: string, options?: ToastOptions) =>
    show('loading', message, { duration: toastDurations.loading, ...options }),
  dismiss: (id?: string) => withLibrary(({ default: toast }) => toast.dismiss(id)),
};
