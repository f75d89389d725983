import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { MantineProvider } from '@mantine/core';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { MemoryRouter } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { storageKeys } from '@mooz/contract/config';
import type { Session } from '@mooz/contract/courses';
import type { StudentDashboard as StudentData, TeacherDashboard as TeacherData } from '@mooz/contract/dashboards';
import { StudentDashboard } from './student-dashboard';
import { TeacherDashboard } from './teacher-dashboard';

// Without i18n set up, t() answers its keys, so the texts are checked by key.
const wrap = (ui: ReactNode) =>
  render(
    <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retryDelay: 0 } } })}>
      <MantineProvider>
        <MemoryRouter>{ui}</MemoryRouter>
      </MantineProvider>
    </QueryClientProvider>,
  );

const json = (status: number, body: unknown) => new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });

const week = (hours: number[]) => hours.map((value, i) => ({ date: `2026-11-${String(17 + i).padStart(2, '0')}`, hours: value }));

const session = (over: Partial<Session> = {}): Session => ({
  id: 7,
  course_id: 3,
  course_name: 'Pottery',
  batch_id: 1,
  title: 'Glazing',
  starts_at: '2030-01-01T10:00:00.000Z',
  ends_at: '2030-01-01T11:00:00.000Z',
  room_id: 'room-7',
  status: 'scheduled',
  teacher_name: 'Tara Teacher',
  capacity: 10,
  can_join: false,
  ...over,
});

const student = (over: Partial<StudentData> = {}): StudentData => ({
  student_name: 'Sam Student',
  learning_stats: { total_learning_hours: 3.46, assignments_completed: 1, assignments_total: 4 },
  skills: [
    { name: 'Glazing', level: 40 },
    { name: 'Throwing', level: 100 },
  ],
  weekly_learning_trends: week([0, 0.5, 0, 1.25, 0, 0, 0.2]),
  certificates: [
    { id: 'CERT1234', course_name: 'Pottery', issued_at: '2026-11-01T10:00:00.000Z', url: '/api/certificates/CERT1234/pdf', verify_url: '/certificates/CERT1234' },
  ],
  live_hours: 3,
  recording_hours: 0.46,
  next_class: session({ can_join: true, status: 'live' }),
  assignments_due: [{ id: 5, title: 'Glaze a cup', course_id: 3, course_name: 'Pottery', due_at: '2030-01-02T10:00:00.000Z' }],
  quizzes: { total: 4, answered: 3, correct: 2 },
  tz: 'Europe/Paris',
  ...over,
});

const brandNew = (): StudentData =>
  student({
    learning_stats: { total_learning_hours: 0, assignments_completed: 0, assignments_total: 0 },
    skills: [],
    weekly_learning_trends: week([0, 0, 0, 0, 0, 0, 0]),
    certificates: [],
    live_hours: 0,
    recording_hours: 0,
    next_class: null,
    assignments_due: [],
    quizzes: { total: 0, answered: 0, correct: 0 },
  });

const teacher = (over: Partial<TeacherData> = {}): TeacherData => ({
  stats: { totalTeachingHours: 12.25, activeStudents: 1234, upcomingClasses: 518, nextClass: session({ can_join: true }), missingClasses: 2 },
  weeklyTrends: week([0, 2, 0, 0, 1, 0, 0]),
  upcomingWeek: 3,
  missedClasses: [session({ id: 9, title: 'Kiln safety', status: 'ended' })],
  pendingReviews: [
    { submission_id: 11, assignment_id: 5, assignment_title: 'Glaze a cup', course_id: 3, course_name: 'Pottery', student_name: 'Sam Student', submitted_at: '2026-11-20T10:00:00.000Z' },
  ],
  pendingReviewsTotal: 4,
  teacherName: 'Tara Teacher',
  tz: 'UTC',
  ...over,
});

let fetch: ReturnType<typeof vi.fn>;
beforeEach(() => {
  localStorage.setItem(storageKeys.access, 'token');
  fetch = vi.fn();
  vi.stubGlobal('fetch', fetch);
});
afterEach(() => vi.unstubAllGlobals());

const requested = (index = 0) => new URL(String(fetch.mock.calls[index]![0]), 'http://localhost');

describe("the student's dashboard", () => {
  it('asks for the week in the browser time zone, shows skeletons, then every figure', async () => {
    let answer!: (response: Response) => void;
    fetch.mockReturnValueOnce(new Promise<Response>((resolve) => (answer = resolve)));
    wrap(<StudentDashboard />);
    expect(screen.getByTestId('student-dashboard-loading')).toHaveAttribute('aria-busy', 'true');
    expect(requested().pathname).toBe('/api/dashboard/student/');
    expect(requested().searchParams.get('tz')).toBe(Intl.DateTimeFormat().resolvedOptions().timeZone);
    expect(requested().searchParams.has('student_id')).toBe(false);
    answer(json(200, { data: student() }));

    expect(await screen.findByTestId('student-dashboard')).toBeInTheDocument();
    expect(screen.getByTestId('stat-learning-hours-value')).toHaveAttribute('data-value', '3.46');
    expect(screen.getByTestId('stat-learning-hours-value').textContent).toMatch(/3[.,]5/);
    expect(screen.getByTestId('stat-assignments-value')).toHaveTextContent('dashboard.student.assignmentsValue');
    expect(screen.getByTestId('stat-quizzes')).toHaveTextContent('dashboard.student.quizzes');
    expect(screen.getAllByTestId('skill')).toHaveLength(2);
    expect(screen.getAllByRole('progressbar', { name: 'dashboard.student.skillLevel' })).toHaveLength(2);
    // The chart's seven values, oldest first, for screen readers and tests.
    const rows = within(screen.getByTestId('learning-trend-table')).getAllByRole('row').slice(1);
    expect(rows.map((row) => row.getAttribute('data-hours'))).toEqual(['0', '0.5', '0', '1.25', '0', '0', '0.2']);
    expect(screen.getByTestId('next-class-join')).toHaveAttribute('href', '/meeting/room-7');
    expect(within(screen.getByTestId('assignment-due')).getByRole('link')).toHaveAttribute('href', '/courses/3?tab=assignments');
    expect(screen.getByTestId('certificate-download')).toHaveAttribute('href', `${window.location.origin}/api/certificates/CERT1234/pdf`);
  });

  it('copies the absolute verification link of a certificate', async () => {
    const writeText = vi.fn().mockResolvedValue(undefined);
    vi.stubGlobal('navigator', { ...navigator, clipboard: { writeText } });
    fetch.mockResolvedValueOnce(json(200, { data: student() }));
    wrap(<StudentDashboard />);
    fireEvent.click(await screen.findByTestId('certificate-share'));
    await waitFor(() => expect(writeText).toHaveBeenCalledWith(`${window.location.origin}/certificates/CERT1234`));
  });

  it('hides the next class Join until the server says it can be joined', async () => {
    fetch.mockResolvedValueOnce(json(200, { data: student({ next_class: session({ can_join: false }) }) }));
    wrap(<StudentDashboard />);
    expect(await screen.findByTestId('next-class-join-later')).toBeDisabled();
    expect(screen.queryByTestId('next-class-join')).toBeNull();
  });

  it('greets a brand-new student with the catalogue instead of zeros and empty charts', async () => {
    fetch.mockResolvedValueOnce(json(200, { data: brandNew() }));
    wrap(<StudentDashboard />);
    const empty = await screen.findByTestId('student-dashboard-empty');
    expect(within(empty).getByRole('link', { name: 'dashboard.student.browse' })).toHaveAttribute('href', '/courses');
    expect(screen.queryByTestId('learning-trend')).toBeNull();
    expect(screen.queryByTestId('stat-learning-hours')).toBeNull();
  });

  it('shows a class a trial already opens beside the invitation', async () => {
    fetch.mockResolvedValueOnce(json(200, { data: { ...brandNew(), next_class: session({ can_join: true, status: 'live' }) } }));
    wrap(<StudentDashboard />);
    expect(await screen.findByTestId('student-dashboard-empty')).toBeInTheDocument();
    expect(screen.getByTestId('next-class-join')).toHaveAttribute('href', '/meeting/room-7');
    expect(screen.queryByTestId('stat-learning-hours')).toBeNull();
  });

  it('draws no chart for a week without learning, but still lists its seven zeros', async () => {
    fetch.mockResolvedValueOnce(json(200, { data: student({ weekly_learning_trends: week([0, 0, 0, 0, 0, 0, 0]) }) }));
    wrap(<StudentDashboard />);
    expect(await screen.findByTestId('learning-trend-empty')).toHaveTextContent('dashboard.student.trendEmpty');
    expect(within(screen.getByTestId('learning-trend-table')).getAllByRole('row')).toHaveLength(8);
  });

  it("shows the server's message on failure, and a retry that asks again", async () => {
    fetch.mockResolvedValueOnce(json(400, { message: 'Unknown time zone' }));
    wrap(<StudentDashboard />);
    const error = await screen.findByTestId('student-dashboard-error');
    // A 4xx is not retried by itself: one call so far.
    expect(fetch).toHaveBeenCalledTimes(1);
    expect(within(error).getByTestId('student-dashboard-error-message')).toHaveTextContent(/unknownTimeZone|Unknown time zone/);
    fetch.mockResolvedValueOnce(json(200, { data: student() }));
    fireEvent.click(within(error).getByTestId('student-dashboard-error-retry'));
    expect(await screen.findByTestId('student-dashboard')).toBeInTheDocument();
    expect(fetch).toHaveBeenCalledTimes(2);
  });

  it('asks for a chosen student when an admin picks one', async () => {
    fetch.mockResolvedValueOnce(json(200, { data: student() }));
    wrap(<StudentDashboard studentId={42} />);
    await screen.findByTestId('student-dashboard');
    expect(requested().searchParams.get('student_id')).toBe('42');
  });
});

describe("the teacher's dashboard", () => {
  it('shows the five stats, the trend, the missed classes and the answers to review', async () => {
    fetch.mockResolvedValueOnce(json(200, { data: teacher() }));
    wrap(<TeacherDashboard />);
    await screen.findByTestId('teacher-dashboard');
    expect(requested().pathname).toBe('/api/dashboard/teacher/');
    expect(requested().searchParams.get('tz')).toBeTruthy();
    expect(screen.getByTestId('stat-teaching-hours-value')).toHaveAttribute('data-value', '12.25');
    expect(screen.getByTestId('stat-active-students-value').textContent).toMatch(/1.?234/);
    // The next seven days, said and linked to, not every session not yet started.
    expect(screen.getByTestId('stat-upcoming-value')).toHaveTextContent('3');
    expect(screen.getByTestId('stat-upcoming')).toHaveTextContent('dashboard.teacher.upcomingWithin');
    expect(screen.getByTestId('stat-upcoming-link')).toHaveAttribute('href', '/sessions?upcoming=7');
    expect(screen.getByTestId('stat-missed-value')).toHaveTextContent('2');
    // Scheduled and joinable: the teacher starts it.
    expect(screen.getByTestId('teacher-next-class-join')).toHaveTextContent('dashboard.nextClass.start');
    expect(screen.getByTestId('teacher-next-class-join')).toHaveAttribute('href', '/meeting/room-7');
    expect(screen.getAllByTestId('missed-class')).toHaveLength(1);
    expect(within(screen.getByTestId('pending-review')).getByRole('link')).toHaveAttribute('href', '/courses/3?tab=assignments');
    expect(screen.getByTestId('pending-reviews-total')).toHaveTextContent('4');
    const rows = within(screen.getByTestId('teaching-trend-table')).getAllByRole('row').slice(1);
    expect(rows.map((row) => row.getAttribute('data-hours'))).toEqual(['0', '2', '0', '0', '1', '0', '0']);
  });

  it("says 'Something went wrong!' on failure, whatever the server said, and retries", async () => {
    fetch.mockResolvedValueOnce(json(403, { message: 'Cannot execute read on TeacherDashboard' }));
    wrap(<TeacherDashboard />);
    const error = await screen.findByTestId('teacher-dashboard-error');
    expect(within(error).getByTestId('teacher-dashboard-error-message')).toHaveTextContent('messages.somethingWentWrong');
    expect(error).not.toHaveTextContent('Cannot execute');
    fetch.mockResolvedValueOnce(json(200, { data: teacher() }));
    fireEvent.click(within(error).getByTestId('teacher-dashboard-error-retry'));
    expect(await screen.findByTestId('teacher-dashboard')).toBeInTheDocument();
  });

  it('retries a server failure before giving up, but shows the error after it', async () => {
    fetch.mockImplementation(() => Promise.resolve(json(500, { message: 'boom' })));
    wrap(<TeacherDashboard />);
    expect(await screen.findByTestId('teacher-dashboard-error', {}, { timeout: 3000 })).toBeInTheDocument();
    // The first try and two more.
    expect(fetch).toHaveBeenCalledTimes(3);
  });

  it('invites a teacher with nothing yet to start, without empty charts', async () => {
    fetch.mockResolvedValueOnce(
      json(200, {
        data: teacher({
          stats: { totalTeachingHours: 0, activeStudents: 0, upcomingClasses: 0, nextClass: null, missingClasses: 0 },
          upcomingWeek: 0,
          weeklyTrends: week([0, 0, 0, 0, 0, 0, 0]),
          missedClasses: [],
          pendingReviews: [],
          pendingReviewsTotal: 0,
        }),
      }),
    );
    wrap(<TeacherDashboard />);
    expect(await screen.findByTestId('teacher-dashboard-empty')).toHaveTextContent('dashboard.teacher.emptyTitle');
    expect(screen.queryByTestId('teaching-trend')).toBeNull();
  });

  it('asks for a chosen teacher when an admin picks one', async () => {
    fetch.mockResolvedValueOnce(json(200, { data: teacher() }));
    wrap(<TeacherDashboard teacherId={8} own={false} />);
    await screen.findByTestId('teacher-dashboard');
    expect(requested().searchParams.get('teacher_id')).toBe('8');
    // Spoken of in the third person, and joined, not started, by the admin.
    expect(screen.getByTestId('stat-missed')).toHaveTextContent('dashboard.teacher.missedHintOther');
    expect(screen.getByTestId('teacher-next-class-join')).toHaveTextContent('sessions.join');
  });
});
