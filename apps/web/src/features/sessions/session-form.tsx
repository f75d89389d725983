// The start of a session as a datetime-local input shows it (the browser's time zone) and back, and
// the start and duration fields as the schedule and edit forms both show them.
import { NumberInput, TextInput, type NumberInputProps, type TextInputProps } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { limits } from '@mooz/contract/limits';
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

/** The duration field: whole minutes, in quarter-hour steps, within what a session may last. */
export function DurationInput(props: NumberInputProps) {
  const { t } = useTranslation();
  return (
    <NumberInput
      label={t('sessions.form.duration')}
      min={limits.sessionMinMinutes}
      max={limits.sessionMaxMinutes}
      step={15}
      allowDecimal={false}
      {...props}
    />
  );
}
