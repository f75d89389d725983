// The start of a session as a datetime-local input shows it (the browser's time zone) and back, and
// that input as the schedule and edit forms both show it.
import { TextInput, type TextInputProps } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { viewerTimeZone } from '../../lib/intl';

/** `YYYY-MM-DDTHH:MM` for a datetime-local input, in the browser's time zone. */
export function localInputValue(at: Date): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${at.getFullYear()}-${pad(at.getMonth() + 1)}-${pad(at.getDate())}T${pad(at.getHours())}:${pad(at.getMinutes())}`;
}

/** A datetime-local value as an ISO instant; what cannot be read is passed on for the schema to refuse. */
export function isoFromLocalInput(value: string): string {
  const at = new Date(value);
  return Number.isNaN(at.getTime()) ? value : at.toISOString();
}

/** The start field: a date and time in the browser's time zone, which it names. */
export function StartsAtInput(props: TextInputProps) {
  const { t } = useTranslation();
  return (
    <TextInput
      type="datetime-local"
      label={t('sessions.form.startsAt')}
      description={t('sessions.form.startsAtHint', { zone: viewerTimeZone() })}
      required
      {...props}
    />
  );
}
