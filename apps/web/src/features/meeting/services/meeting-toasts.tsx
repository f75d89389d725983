// Meeting toasts as the product fixes them: bottom-left, no close button or progress bar (react-hot-toast
// has neither), short 1500 ms or medium 3000 ms.
import { useLayoutEffect, useState } from 'react';
import toast from 'react-hot-toast';
import i18n from 'i18next';
import { limits } from '@mooz/contract/limits';
import { translateServerMessage } from '../../../lib/server-message';
import { TOAST_LIFT_PROPERTY, wantToaster } from '../../../lib/toasts';

// These toasts go to react-hot-toast directly, not through notify: the Toaster is mounted with them.
wantToaster();

/** Above the bar by the height of a tile's name caption too: the bottom-left tile's name stays readable. */
const CAPTION_CLEARANCE_PX = 44;

/**
 * Keeps the toasts at the bottom of the screen above the element given to the returned ref (the
 * controls bar) while it is shown, and above the name of the tile just over it: the meeting's toasts
 * are bottom-left, where the first control is.
 */
export function useToastsAbove(): (bar: HTMLElement | null) => void {
  const [bar, setBar] = useState<HTMLElement | null>(null);
  useLayoutEffect(() => {
    if (!bar) return;
    const root = document.documentElement;
    const lift = () => root.style.setProperty(TOAST_LIFT_PROPERTY, `${bar.offsetHeight + CAPTION_CLEARANCE_PX}px`);
    lift();
    // The bar grows when its controls wrap onto a second row (a phone, a host's wider bar).
    const observer = typeof ResizeObserver === 'undefined' ? null : new ResizeObserver(lift);
    observer?.observe(bar);
    return () => {
      observer?.disconnect();
      root.style.removeProperty(TOAST_LIFT_PROPERTY);
    };
  }, [bar]);
  return setBar;
}

const base = { position: 'bottom-left' as const, className: 'mooz-toast mooz-meeting-toast' };
const short = { ...base, duration: limits.meetingToastShortMs };
const medium = { ...base, duration: limits.meetingToastMediumMs };

export const meetingToast = {
  /** Comings and goings of peer links. */
  short(text: string) {
    toast(<span data-testid="meeting-toast">{text}</span>, short);
  },
  medium(text: string) {
    toast(<span data-testid="meeting-toast">{text}</span>, medium);
  },
  /** A failure with its reason as the body, e.g. 'Cannot start media feed.' + the browser's reason. */
  error(title: string, reason?: string) {
    const t = (text: string) => translateServerMessage(i18n.t.bind(i18n), text);
    toast.error(
      <div data-testid="meeting-toast">
        <strong>{t(title)}</strong>
        {reason ? <div className="mooz-meeting-toast-body">{t(reason)}</div> : null}
      </div>,
      medium,
    );
  },
  /** A received chat: clicking it opens the chats tab. */
  chat(title: string, body: string, open: () => void) {
    toast(
      (shown) => (
        <button
          type="button"
          className="mooz-meeting-toast-action"
          data-testid="chat-toast"
          onClick={() => {
            open();
            toast.dismiss(shown.id);
          }}
        >
          <strong>{title}</strong>
          <span className="mooz-meeting-toast-body">{body}</span>
        </button>
      ),
      medium,
    );
  },
};
