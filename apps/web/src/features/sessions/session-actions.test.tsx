import { fireEvent, render, screen } from '@testing-library/react';
import { MantineProvider } from '@mantine/core';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Session } from '@mooz/contract/courses';
import { SessionActions } from './session-actions';

// Without i18n set up, t() answers its keys, so the texts are checked by key.
const wrap = (ui: ReactNode) =>
  render(
    <QueryClientProvider client={new QueryClient()}>
      <MantineProvider>{ui}</MantineProvider>
    </QueryClientProvider>,
  );

const session = (status: Session['status']): Session => ({
  id: 7,
  course_id: 1,
  course_name: 'Pottery',
  batch_id: null,
  title: 'Glazing',
  starts_at: '2030-01-01T10:00:00.000Z',
  ends_at: '2030-01-01T11:00:00.000Z',
  room_id: 'room',
  status,
  teacher_name: 'Tara Teacher',
  capacity: 10,
  can_join: false,
});

afterEach(() => vi.unstubAllGlobals());

describe("a teacher's session actions", () => {
  it('offer Edit and Cancel before the end, and only Attendance after it', () => {
    const { unmount } = wrap(<SessionActions session={session('scheduled')} />);
    expect(screen.getByTestId('edit-session-button')).toBeInTheDocument();
    expect(screen.getByTestId('cancel-session-button')).toBeInTheDocument();
    expect(screen.queryByTestId('session-attendance-button')).toBeNull();
    unmount();
    wrap(<SessionActions session={session('ended')} />);
    expect(screen.getByTestId('session-attendance-button')).toBeInTheDocument();
    expect(screen.getByTestId('session-attendance-csv')).toBeInTheDocument();
    expect(screen.queryByTestId('cancel-session-button')).toBeNull();
  });

  it('saves the attendance of an ended session as the CSV file the server names', async () => {
    const fetch = vi.fn(async () => new Response('\uFEFFName\r\n', { status: 200, headers: { 'content-disposition': `attachment; filename="attendance-glazing-2030-01-01.csv"` } }));
    vi.stubGlobal('fetch', fetch);
    const saved: string[] = [];
    const { createObjectURL, revokeObjectURL } = URL;
    URL.createObjectURL = () => 'blob:csv';
    URL.revokeObjectURL = () => undefined;
    const click = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      saved.push(this.download);
    });
    wrap(<SessionActions session={session('ended')} />);
    fireEvent.click(screen.getByTestId('session-attendance-csv'));
    await vi.waitFor(() => expect(saved).toEqual(['attendance-glazing-2030-01-01.csv']));
    expect(fetch).toHaveBeenCalledWith('/api/classes/sessions/7/attendance/export/', expect.anything());
    click.mockRestore();
    Object.assign(URL, { createObjectURL, revokeObjectURL });
  });

  it('will not cancel without a reason, and asks the server nothing', async () => {
    const fetch = vi.fn();
    vi.stubGlobal('fetch', fetch);
    wrap(<SessionActions session={session('live')} />);
    fireEvent.click(screen.getByTestId('cancel-session-button'));
    fireEvent.change(await screen.findByTestId('cancel-session-reason'), { target: { value: '   ' } });
    fireEvent.click(screen.getByTestId('cancel-session-submit'));
    expect(await screen.findByText('sessions.cancel.reasonRequired')).toBeInTheDocument();
    expect(fetch).not.toHaveBeenCalled();
  });
});
