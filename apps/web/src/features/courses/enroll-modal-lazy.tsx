// The enrolment dialog (Mantine's Modal, Select and SegmentedControl, the order's zod schema) is not
// part of the catalogue's or the course page's chunk: it loads when a pointer or the keyboard reaches an
// Enroll button, or at the latest when one is pressed, and stays mounted from then on so it can animate
// its closing.
import { lazy, Suspense, useState, type ComponentProps } from 'react';
import { loadCheckoutDialogs } from './checkout-dialogs-lazy';
import type { EnrollModal } from './enroll-modal';

/** The dialog, and the checkout's dialogs that may follow it. */
export const loadEnrollModal = () => {
  void loadCheckoutDialogs();
  return import('./enroll-modal');
};
const DeferredEnrollModal = lazy(async () => ({ default: (await loadEnrollModal()).DeferredEnrollModal }));

/** What an Enroll button adds so the dialog is on its way before the click. */
export const preloadEnrollModal = {
  onPointerEnter: () => void loadEnrollModal(),
  onFocus: () => void loadEnrollModal(),
};

export function LazyEnrollModal(props: ComponentProps<typeof EnrollModal>) {
  const [used, setUsed] = useState(false);
  if (props.course !== null && !used) setUsed(true);
  if (!used) return null;
  return (
    <Suspense fallback={null}>
      <DeferredEnrollModal {...props} />
    </Suspense>
  );
}
