import { describe, expect, it } from 'vitest';
import { batchInput } from '@mooz/contract/batches';
import { limits } from '@mooz/contract/limits';
import {
  emptyBatch,
  fieldsOf,
  missingPieces,
  nextStartDay,
  problemOf,
  soldSeatsIn,
  toBatchBody,
  weekdayOf,
} from './open-batch-form';

// 2026-11-23 is a Monday; 2026-11-28 a Saturday.
const today = '2026-11-25';

describe('the start day of a new batch', () => {
  it('is the next Monday for weekdays and the next Saturday for weekends', () => {
    expect(nextStartDay('weekdays', today)).toBe('2026-11-30');
    expect(nextStartDay('weekends', today)).toBe('2026-11-28');
    expect(weekdayOf(nextStartDay('weekends', '2026-11-29'))).toBe(6);
  });

  it('is the day itself when it already is one', () => {
    expect(nextStartDay('weekdays', '2026-11-23')).toBe('2026-11-23');
    expect(nextStartDay('weekends', '2026-11-28')).toBe('2026-11-28');
  });

  it('crosses a month and a year end', () => {
    expect(nextStartDay('weekdays', '2026-12-30')).toBe('2027-01-04');
  });
});

describe('the body sent for a new batch', () => {
  it('sends only the time of a weekday batch, with the default seats and session length', () => {
    const body = toBatchBody({ ...emptyBatch('weekdays', today), time: '07:30', saturday_time: '10:00' });
    expect(body).toEqual({
      kind: 'weekdays',
      start_date: '2026-11-30',
      time: '07:30',
      capacity: limits.defaultBatchSeats,
      session_minutes: limits.defaultBatchSessionMinutes,
    });
    expect(batchInput.safeParse(body).success).toBe(true);
  });

  it('sends the Saturday and Sunday times of a weekend batch, and no weekday time', () => {
    const body = toBatchBody({
      ...emptyBatch('weekends', today),
      time: '07:30',
      saturday_time: '10:00',
      sunday_time: '11:30',
      capacity: 3,
    });
    expect(body).toEqual({
      kind: 'weekends',
      start_date: '2026-11-28',
      saturday_time: '10:00',
      sunday_time: '11:30',
      capacity: 3,
      session_minutes: 60,
    });
  });

  it('leaves blank numbers for the schema to refuse', () => {
    const body = toBatchBody({ ...emptyBatch('weekdays', today), time: '07:30', capacity: '', session_minutes: '' });
    const result = batchInput.safeParse(body);
    expect(result.success).toBe(false);
    expect(fieldsOf(result.error!.issues.map((issue) => issue.path.join('.'))).sort()).toEqual([
      'capacity',
      'session_minutes',
    ]);
  });
});

describe('what the schema cannot check', () => {
  it('refuses a weekday batch starting on a Tuesday and a weekend one starting on a Sunday', () => {
    expect(missingPieces({ ...emptyBatch('weekdays', today), start_date: '2026-12-01', time: '09:00' }, today)).toEqual(
      ['start_date'],
    );
    expect(
      missingPieces(
        { ...emptyBatch('weekends', today), start_date: '2026-11-29', saturday_time: '09:00', sunday_time: '09:00' },
        today,
      ),
    ).toEqual(['start_date']);
  });

  it('refuses a start before today in the course zone', () => {
    expect(missingPieces({ ...emptyBatch('weekdays', today), start_date: '2026-11-23', time: '09:00' }, today)).toEqual(
      ['start_date'],
    );
  });

  it("asks for the kind's own times", () => {
    expect(missingPieces(emptyBatch('weekdays', today), today)).toEqual(['time']);
    expect(missingPieces({ ...emptyBatch('weekends', today), saturday_time: '10:00' }, today)).toEqual(['sunday_time']);
  });
});

describe('the hint of a wrong field', () => {
  it('names the start day of the kind, or the past', () => {
    expect(problemOf('start_date', { ...emptyBatch('weekends', today), start_date: '2026-11-30' }, today).key).toBe(
      'batches.form.startDay.weekends',
    );
    expect(problemOf('start_date', { ...emptyBatch('weekdays', today), start_date: '2026-11-23' }, today).key).toBe(
      'batches.form.startPast',
    );
    expect(problemOf('start_date', { ...emptyBatch('weekdays', today), start_date: '' }, today).key).toBe(
      'validation.required',
    );
  });

  it('gives the ranges of seats and minutes from the contract', () => {
    expect(problemOf('capacity', emptyBatch('weekdays', today), today)).toEqual({
      key: 'batches.form.seatsRange',
      values: { min: 1, max: limits.batchSeatsMax },
    });
    expect(problemOf('session_minutes', emptyBatch('weekdays', today), today).values).toEqual({
      min: limits.sessionMinMinutes,
      max: limits.sessionMaxMinutes,
    });
  });
});

describe("the server's field errors", () => {
  it('are put on the form fields they name, once each', () => {
    expect(fieldsOf(['start_date', 'capacity', 'capacity', 'unknown', 'time.0'])).toEqual([
      'start_date',
      'capacity',
      'time',
    ]);
  });

  it('read the seats already sold from the refusal of fewer seats', () => {
    expect(soldSeatsIn('3 seats are sold already')).toBe(3);
    expect(soldSeatsIn('More seats were sold meanwhile; try again')).toBeNull();
    expect(soldSeatsIn(undefined)).toBeNull();
  });
});
