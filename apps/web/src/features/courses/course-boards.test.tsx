import { fireEvent, render, screen, within } from '@testing-library/react';
import { MantineProvider } from '@mantine/core';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { MemoryRouter, Route, Routes } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { storageKeys } from '@mooz/contract/config';
import type { Course } from '@mooz/contract/courses';
import { aCourse } from '../../../test/courses';
import { buildAbility, rulesFor } from '@mooz/contract/permissions';
import type { SessionWhiteboard } from '@mooz/contract/whiteboard';
import { AbilityContext } from '../../lib/ability';
import { CourseBoards } from './course-boards';
import { CoursePage } from './course-page';

// Without i18n set up, t() answers its keys, so the texts are checked by key.
const wrap = (ui: ReactNode) =>
  render(
    <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
      <MantineProvider>{ui}</MantineProvider>
    </QueryClientProvider>,
  );

const boards: SessionWhiteboard[] = [
  { session_id: 12, title: 'Glazing', starts_at: '2030-01-08T10:00:00.000Z', room_id: 'room-glazing', group: null, pages: [{ page: 0, saved_at: '2030-01-08T10:40:00.000Z' }] },
  {
    session_id: 11,
    title: 'Throwing',
    starts_at: '2030-01-01T10:00:00.000Z',
    room_id: 'room-throwing',
    group: null,
    pages: [
      { page: 0, saved_at: '2030-01-01T10:30:00.000Z' },
      { page: 1, saved_at: '2030-01-01T10:50:00.000Z' },
    ],
  },
];

const json = (body: unknown, status = 200) => new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
const pngResponse = () => new Response(new Blob([new Uint8Array([0x89, 0x50, 0x4e, 0x47])], { type: 'image/png' }), { status: 200 });

/** The server: the course's boards answer `answer`; every saved page answers a PNG. */
function stubServer(answer: () => Response, course?: Course) {
  const fetch = vi.fn(async (url: string, _init?: RequestInit) => {
    if (url === '/api/courses/5/whiteboards/') return answer();
    if (/^\/api\/classes\/rooms\/[^/]+\/whiteboard\/\d+\/$/.test(url)) return pngResponse();
    if (course && url === '/api/courses/5/') return json({ data: course });
    return json({ message: 'Not found' }, 404);
  });
  vi.stubGlobal('fetch', fetch);
  return fetch;
}

const { createObjectURL, revokeObjectURL } = URL;
beforeEach(() => {
  localStorage.setItem(storageKeys.access, 'token');
  let made = 0;
  URL.createObjectURL = () => `blob:page-${++made}`;
  URL.revokeObjectURL = () => undefined;
});
afterEach(() => {
  vi.unstubAllGlobals();
  Object.assign(URL, { createObjectURL, revokeObjectURL });
});

describe("a course's boards", () => {
  it("lists each class's saved board as the server orders them, its pages as pictures that open the full PNG", async () => {
    const fetch = stubServer(() => json({ data: boards }));
    wrap(<CourseBoards courseId={5} />);
    const sections = await screen.findAllByTestId('course-board');
    expect(sections.map((section) => within(section).getByRole('heading').textContent)).toEqual(['Glazing', 'Throwing']);
    // Each class is a region named by its title, each page named by its class for assistive technology.
    expect(screen.getByRole('region', { name: 'Throwing' })).toBe(sections[1]);
    expect(within(sections[1]!).getAllByTestId('session-board-page')).toHaveLength(2);
    const links = await within(sections[1]!).findAllByTestId('board-page-full');
    expect(links).toHaveLength(2);
    for (const link of links) {
      expect(link).toHaveAttribute('href', expect.stringMatching(/^blob:page-\d+$/));
      expect(link).toHaveAttribute('target', '_blank');
      expect(within(link).getByRole('img')).toHaveAttribute('alt', 'courses.boards.pageOf');
    }
    expect(within(sections[1]!).getAllByRole('button', { name: 'sessions.boards.downloadNamed' })).toHaveLength(2);
    // Each picture is asked for with the bearer token (an <img> sends none).
    await vi.waitFor(() => expect(fetch).toHaveBeenCalledWith('/api/classes/rooms/room-throwing/whiteboard/1/', expect.objectContaining({ headers: { Authorization: 'Bearer token' } })));
    expect(fetch).toHaveBeenCalledWith('/api/classes/rooms/room-glazing/whiteboard/0/', expect.anything());
  });

  it('says so when no class saved a board yet', async () => {
    stubServer(() => json({ data: [] }));
    wrap(<CourseBoards courseId={5} />);
    expect(await screen.findByTestId('course-boards-empty')).toHaveTextContent('courses.boards.empty.title');
    expect(screen.queryByTestId('course-board')).toBeNull();
  });

  it("shows the server's refusal and asks again on Retry", async () => {
    let refuse = true;
    const fetch = stubServer(() => (refuse ? json({ message: 'You are not a student of this course' }, 403) : json({ data: boards })));
    wrap(<CourseBoards courseId={5} />);
    const error = await screen.findByTestId('course-boards-error');
    expect(error).toHaveTextContent('courses.boards.errorTitle');
    expect(error).toHaveTextContent('You are not a student of this course');
    refuse = false;
    fireEvent.click(within(error).getByRole('button', { name: 'common.retry' }));
    expect(await screen.findAllByTestId('course-board')).toHaveLength(2);
    expect(fetch.mock.calls.filter(([url]) => url === '/api/courses/5/whiteboards/')).toHaveLength(2);
  });
});

const course = (enrolled: boolean) => aCourse({ id: 5, enrolled });

/** The course page at `/courses/5?tab=boards` for a student (id 9), bought or not, trial over. */
function coursePage(enrolled: boolean) {
  localStorage.setItem(storageKeys.user, JSON.stringify({ id: 9, user_type: 'student', is_trial: false, ability: rulesFor('student', 9) }));
  stubServer(() => json({ data: boards }), course(enrolled));
  wrap(
    <AbilityContext.Provider value={buildAbility(rulesFor('student', 9))}>
      <MemoryRouter initialEntries={['/courses/5?tab=boards']}>
        <Routes>
          <Route path="/courses/:id" element={<CoursePage />} />
        </Routes>
      </MemoryRouter>
    </AbilityContext.Provider>,
  );
}

describe('the course page', () => {
  it("gives a course's buyer a Boards tab, opened by ?tab=boards", async () => {
    coursePage(true);
    const tab = await screen.findByTestId('course-tab-boards');
    expect(tab).toHaveAttribute('role', 'tab');
    expect(tab).toHaveAttribute('aria-selected', 'true');
    expect(await screen.findAllByTestId('course-board')).toHaveLength(2);
  });

  it('gives a student who is not in the course (trial over) no Boards tab, only the overview', async () => {
    coursePage(false);
    expect(await screen.findByTestId('course-details')).toBeInTheDocument();
    expect(screen.queryByTestId('course-tab-boards')).toBeNull();
    expect(screen.queryByTestId('course-board')).toBeNull();
  });
});
