// The toasts' host, loaded with react-hot-toast (lib/toasts.ts): where they show, for how long, and at
// most limits.toastMaxVisible at once.
import { useEffect } from 'react';
import toast, { Toaster, useToasterStore } from 'react-hot-toast';
import { limits } from '@mooz/contract/limits';
import { useLayoutPreferences } from '../lib/layout-preferences';
import { TOAST_DROP_PROPERTY, TOAST_LIFT_PROPERTY, toastDurations } from '../lib/toasts';

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

// react-hot-toast's own 16 px from the edge, above whatever asks for room at the bottom and below the
// app's header at the top.
export const containerStyle = {
  bottom: `calc(16px + var(${TOAST_LIFT_PROPERTY}, 0px))`,
  top: `calc(16px + var(${TOAST_DROP_PROPERTY}, 0px))`,
};

export default function Toasts() {
  const position = useLayoutPreferences((state) => state.toastPosition);
  useToastLimit();
  return (
    <Toaster
      position={position}
      containerStyle={containerStyle}
      containerClassName="mooz-toaster"
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
