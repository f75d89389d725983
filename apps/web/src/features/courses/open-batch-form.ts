// The "Open a batch" form's rules besides the contract's schema: weekday batches start on a Monday
// and weekend ones on a Saturday (in the course's zone, from today on), each kind with its own times;
// and the server's English field errors told again in the user's words.
import { batchDays, type BatchInput } from '@mooz/contract/batches';
import type { BatchKind } from '@mooz/contract/courses';
import { limits } from '@mooz/contract/limits';

export interface OpenBatchValues {
  kind: BatchKind;
  start_date: string;
  time: string;
  saturday_time: string;
  sunday_time: string;
  capacity: number | string;
  session_minutes: number | string;
}

export type OpenBatchField = keyof OpenBatchValues;

const DAY_MS = 86_400_000;

/** ISO weekday of a calendar date: Monday 1 … Sunday 7 (NaN for no date). */
export const weekdayOf = (date: string) => ((new Date(`${date}T00:00:00Z`).getUTCDay() + 6) % 7) + 1;

/** The day a batch of this kind starts on, on or after `date`. */
export function nextStartDay(kind: BatchKind, date: string): string {
  const shift = (batchDays[kind][0] - weekdayOf(date) + 7) % 7;
  return new Date(Date.parse(`${date}T00:00:00Z`) + shift * DAY_MS).toISOString().slice(0, 10);
}

export function emptyBatch(kind: BatchKind, today: string): OpenBatchValues {
  return {
    kind,
    start_date: nextStartDay(kind, today),
    time: '',
    saturday_time: '',
    sunday_time: '',
    capacity: limits.defaultBatchSeats,
    session_minutes: limits.defaultBatchSessionMinutes,
  };
}

/** The request body: only the times of its kind; numbers left blank go as NaN for the schema to refuse. */
export function toBatchBody(values: OpenBatchValues): BatchInput {
  const number = (value: number | string) => (value === '' ? Number.NaN : Number(value));
  const times =
    values.kind === 'weekdays'
      ? { time: values.time || undefined }
      : { saturday_time: values.saturday_time || undefined, sunday_time: values.sunday_time || undefined };
  return {
    kind: values.kind,
    start_date: values.start_date,
    ...times,
    capacity: number(values.capacity),
    session_minutes: number(values.session_minutes),
  };
}

/** Why a field is wrong, as a translation key and its values. */
interface FieldProblem {
  key: string;
  values?: Record<string, number | string>;
}

/** The hint for a wrong field, knowing what the schema (or the server) found wrong with it. */
export function problemOf(field: OpenBatchField, values: OpenBatchValues, today: string): FieldProblem {
  switch (field) {
    case 'start_date':
      if (!values.start_date) return { key: 'validation.required' };
      if (weekdayOf(values.start_date) !== batchDays[values.kind][0])
        return { key: `batches.form.startDay.${values.kind}` };
      if (values.start_date < today) return { key: 'batches.form.startPast' };
      return { key: 'batches.form.startInvalid' };
    case 'time':
    case 'saturday_time':
    case 'sunday_time':
      return values[field] ? { key: 'batches.form.timeInvalid' } : { key: 'validation.required' };
    case 'capacity':
      return { key: 'batches.form.seatsRange', values: { min: 1, max: limits.batchSeatsMax } };
    case 'session_minutes':
      return {
        key: 'batches.form.minutesRange',
        values: { min: limits.sessionMinMinutes, max: limits.sessionMaxMinutes },
      };
    default:
      return { key: 'validation.required' };
  }
}

/** Fields the schema cannot judge: the start day of the kind, from today on, and the kind's times. */
export function missingPieces(values: OpenBatchValues, today: string): OpenBatchField[] {
  const wrong: OpenBatchField[] = [];
  if (!values.start_date || weekdayOf(values.start_date) !== batchDays[values.kind][0] || values.start_date < today)
    wrong.push('start_date');
  const times: OpenBatchField[] = values.kind === 'weekdays' ? ['time'] : ['saturday_time', 'sunday_time'];
  for (const field of times) if (!values[field]) wrong.push(field);
  return wrong;
}

const formFields = new Set<string>([
  'kind',
  'start_date',
  'time',
  'saturday_time',
  'sunday_time',
  'capacity',
  'session_minutes',
]);

/** The form's fields named by a list of error paths (the resolver's, or the server's `errors`). */
export function fieldsOf(paths: string[]): OpenBatchField[] {
  return [
    ...new Set(paths.map((path) => path.split('.')[0]!).filter((field) => formFields.has(field))),
  ] as OpenBatchField[];
}

/** "3 seats are sold already", the server's answer to fewer seats than sold, as a count; else null. */
export function soldSeatsIn(text: string | undefined): number | null {
  const match = /^(\d+) seats? (?:are|is) sold already/.exec(text ?? '');
  return match ? Number(match[1]) : null;
}
