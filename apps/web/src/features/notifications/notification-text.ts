// The words of a notification in the reader's language, from its kind and its facts (the server sends
// facts, not sentences): times in the reader's way, money with its currency.
import { useCallback } from 'react';
import { useTranslation } from 'react-i18next';
import type { Notification } from '@mooz/contract/notifications';
import { dateTimeFormat, numberFormat } from '../../lib/intl';

function values(params: Notification['params'], language: string | undefined) {
  const out: Record<string, string | number> = { ...params };
  for (const [key, value] of Object.entries(params)) {
    if ((key === 'at' || key.endsWith('_at')) && typeof value === 'string') out[key] = dateTimeFormat(language, { dateStyle: 'medium', timeStyle: 'short' }).format(new Date(value));
  }
  if (typeof params.amount === 'number' && typeof params.currency === 'string') {
    const format = numberFormat(language, { style: 'currency', currency: params.currency });
    out.amount = format.format(params.amount / 10 ** (format.resolvedOptions().maximumFractionDigits ?? 2));
  }
  return out;
}

export function useNotificationText() {
  const { t, i18n } = useTranslation();
  return useCallback(
    (notification: Notification) => t(`notifications.kind.${notification.kind}`, values(notification.params, i18n.resolvedLanguage)),
    [t, i18n.resolvedLanguage],
  );
}

/** "5 min ago", "yesterday": how long since, in the reader's language. */
export function useSince() {
  const { i18n } = useTranslation();
  return useCallback(
    (iso: string) => {
      const format = new Intl.RelativeTimeFormat(i18n.resolvedLanguage, { numeric: 'auto' });
      const seconds = Math.round((new Date(iso).getTime() - Date.now()) / 1000);
      const steps: [Intl.RelativeTimeFormatUnit, number][] = [
        ['day', 86_400],
        ['hour', 3_600],
        ['minute', 60],
      ];
      for (const [unit, size] of steps) if (Math.abs(seconds) >= size) return format.format(Math.round(seconds / size), unit);
      return format.format(0, 'minute');
    },
    [i18n.resolvedLanguage],
  );
}
