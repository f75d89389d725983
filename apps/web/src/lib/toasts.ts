// Toasts with fixed durations (success 2 s, error and plain 4 s, loading until dismissed: limits.toast*)
// and at most 20 visible at once.
import { useEffect } from 'react';
import toast, { useToasterStore, type ToastOptions } from 'react-hot-toast';
import { limits } from '@mooz/contract/limits';

export const toastDurations = {
  success: limits.toastSuccessMs,
  error: limits.toastErrorMs,
  blank: limits.toastPlainMs,
  loading: Infinity,
} as const;

export const notify = {
  success: (message: string, options?: ToastOptions) =>
    toast.success(message, { duration: toastDurations.success, ...options }),
  error: (message: string, options?: ToastOptions) =>
    toast.error(message, { duration: toastDurations.error, ...options }),
  info: (message: string, options?: ToastOptions) => toast(message, { duration: toastDurations.blank, ...options }),
  loading: (message: string, options?: ToastOptions) =>
    toast.loading(message, { duration: toastDurations.loading, ...options }),
  dismiss: (id?: string) => toast.dismiss(id),
};

/**
 * Keeps at most `max` toasts on screen by dismissing the oldest. react-hot-toast only caps its
 * internal list (and drops toasts without their exit animation); this makes our limit explicit.
 */
export function useToastLimit(max: number = limits.toastMaxVisible): void {
  const { toasts } = useToasterStore();
  useEffect(() => {
    const visible = toasts.filter((t) => t.visible).sort((a, b) => b.createdAt - a.createdAt);
    for (const stale of visible.slice(max)) toast.dismiss(stale.id);
  }, [toasts, max]);
}
