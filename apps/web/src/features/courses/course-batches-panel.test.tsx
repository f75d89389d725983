import { fireEvent, render, screen, within } from '@testing-library/react';
import { MantineProvider } from '@mantine/core';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Batch } from '@mooz/contract/batches';
import type { Course } from '@mooz/contract/courses';
import { aCourse } from '../../../test/courses';
import { CourseBatchesPanel } from './course-batches-panel';

// Without i18n set up, t() answers its keys, so the texts are checked by key.
const wrap = (course: Course) =>
  render(
    <QueryClientProvider client={new QueryClient()}>
      <MantineProvider>
        <CourseBatchesPanel course={course} />
      </MantineProvider>
    </QueryClientProvider>,
  );

const batch = (id: number, over: Partial<Batch> = {}): Batch => ({
  id,
  course_id: 1,
  kind: 'weekends',
  start_date: '2030-01-05',
  end_date: '2030-03-01',
  time: null,
  saturday_time: '10:00',
  sunday_time: '11:30',
  time_zone: 'Asia/Kolkata',
  session_minutes: 60,
  capacity: 9,
  seats_left: 9,
  sold_out: false,
  started: false,
  meetings: [
    { weekday: 6, time: '10:00', first_starts_at: '2030-01-05T04:30:00.000Z' },
    { weekday: 7, time: '11:30', first_starts_at: '2030-01-06T06:00:00.000Z' },
  ],
  ...over,
});

const course = (batches: Batch[]) => aCourse({ batch_start_dates: ['2029-12-31'], weekend_times: ['10:00'], batches });

afterEach(() => vi.unstubAllGlobals());

describe("a course's batches panel", () => {
  it('shows each batch with its seats sold and status, and offers removal only for an unsold one', () => {
    wrap(
      course([
        batch(1),
        batch(2, { seats_left: 0, sold_out: true, capacity: 3 }),
        batch(3, { started: true, seats_left: 4 }),
      ]),
    );
    const rows = screen.getAllByTestId('batch-row');
    expect(rows).toHaveLength(3);
    expect(rows.map((row) => within(row).getByTestId('batch-status').dataset.status)).toEqual([
      'open',
      'soldOut',
      'started',
    ]);
    expect(within(rows[0]!).getByTestId('batch-meets').textContent).toMatch(/10:00.*11:30/);
    expect(rows.map((row) => within(row).queryByTestId('batch-remove') !== null)).toEqual([true, false, false]);
  });

  it('says so when the course has no batch', () => {
    wrap(course([]));
    expect(screen.getByTestId('batches-empty')).toHaveTextContent('batches.empty.title');
    expect(screen.getByTestId('open-batch')).toBeInTheDocument();
  });

  it('refuses a weekend batch starting on a Sunday, and a missing Sunday time, before asking the server', async () => {
    const fetch = vi.fn();
    vi.stubGlobal('fetch', fetch);
    wrap(course([]));
    fireEvent.click(screen.getByTestId('open-batch'));
    fireEvent.click(await screen.findByTestId('batch-kind-weekends'));
    fireEvent.change(screen.getByTestId('batch-start-date'), { target: { value: '2030-01-06' } });
    fireEvent.change(screen.getByTestId('batch-saturday-time'), { target: { value: '10:00' } });
    fireEvent.click(screen.getByTestId('open-batch-submit'));
    expect(await screen.findByText('batches.form.startDay.weekends')).toBeInTheDocument();
    expect(screen.getByText('validation.required')).toBeInTheDocument();
    expect(fetch).not.toHaveBeenCalled();
  });
});
