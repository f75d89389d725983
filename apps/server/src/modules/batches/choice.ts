// create_order's schedule choice, matched to one of the course's batches. The contract's body names
// a batch by its kind, start date, end date and time(s); `batch_id` may name it too, and then must
// agree. Every wrong field is named at once, in the words the enroll form shows next to the field.
import type { CreateOrderBody } from '@mooz/contract/payments';
import { messages } from '@mooz/contract/messages';
import { badRequest, conflict, type FieldErrors } from '../../http/errors';
import type { BatchRow } from './store';
import { weeklyMeetings, type BatchTimes } from './timetable';

/** Its first session has started: too late to join the batch. */
function batchStarted(row: BatchRow, zone: string, now: Date): boolean {
  const first = weeklyMeetings(row as BatchTimes, zone)[0];
  return first !== undefined && now.getTime() >= Date.parse(first.first_starts_at);
}

export function chooseBatch(rows: BatchRow[], zone: string, body: CreateOrderBody, now: Date): BatchRow {
  const errors: FieldErrors = {};
  const problem = (field: string, text: string) => void (errors[field] ??= []).push(text);
  const ofKind = rows.filter((b) => b.kind === body.batch);
  const starting = ofKind.filter((b) => b.startDate === body.start_date);
  const kindName = body.batch === 'weekdays' ? 'weekday' : 'weekend';

  if (!ofKind.length) problem('batch', `This course has no ${kindName} batches`);
  else if (!starting.length) problem('start_date', "Choose one of the course's batch start dates");
  else if (body.end_date !== starting[0]!.endDate) problem('end_date', `The batch ends on ${starting[0]!.endDate}`);

  const timeField = (field: 'time' | 'saturday_time' | 'sunday_time', column: 'time' | 'saturdayTime' | 'sundayTime', needed: boolean) => {
    const value = body[field];
    if (!needed) {
      if (value !== undefined) problem(field, body.batch === 'weekdays' ? 'Only for weekend batches' : 'Only for weekday batches');
    } else if (value === undefined) problem(field, 'Required');
    else if (ofKind.length && !ofKind.some((b) => b[column] === value)) problem(field, `Choose one of the course's ${kindName} times`);
  };
  timeField('time', 'time', body.batch === 'weekdays');
  timeField('saturday_time', 'saturdayTime', body.batch === 'weekends');
  timeField('sunday_time', 'sundayTime', body.batch === 'weekends');

  const matching = starting.find(
    (b) =>
      b.time === (body.time ?? null) &&
      b.saturdayTime === (body.saturday_time ?? null) &&
      b.sundayTime === (body.sunday_time ?? null),
  );
  if (!Object.keys(errors).length && !matching) {
    problem(body.batch === 'weekdays' ? 'time' : 'sunday_time', 'No batch starting that day meets at these times');
  }
  if (body.batch_id !== undefined && !rows.some((b) => b.id === body.batch_id)) problem('batch_id', "Choose one of the course's batches");
  else if (body.batch_id !== undefined && matching && matching.id !== body.batch_id) problem('batch_id', 'This batch has other dates or times');
  if (matching && !errors.start_date && batchStarted(matching, zone, now)) problem('start_date', messages.batchStarted);

  if (Object.keys(errors).length) throw badRequest(messages.validationFailed, errors);
  if (matching!.seatsTaken >= matching!.seats) throw conflict(messages.batchSoldOut);
  return matching!;
}
