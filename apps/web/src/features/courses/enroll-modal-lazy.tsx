// The enrolment dialog (Mantine's Modal, Select and SegmentedControl, the order's zod schema) is not
// part of the catalogue's or the course page's chunk: it loads when a pointer or the keyboard reaches an
// Enroll button, or at the latest when one is pressed (deferred-dialog.tsx).
import { loadCheckoutDialogs } from './checkout-dialogs-lazy';
import { deferredDialog } from './deferred-dialog';

/** The dialog, and the checkout's dialogs that may follow it. */
const loadEnrollModal = () => {
  void loadCheckoutDialogs();
  return import('./enroll-modal');
};

/** What an Enroll button adds so the dialog is on its way before the click. */
export const preloadEnrollModal = {
  onPointerEnter: () => void loadEnrollModal(),
  onFocus: () => void loadEnrollModal(),
};

export const LazyEnrollModal = deferredDialog(
  async () => (await loadEnrollModal()).DeferredEnrollModal,
  (props) => props.course,
);
