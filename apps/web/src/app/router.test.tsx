// /courses/abc spun for ever while /courses/99999 showed the not-found page. Every
// route with an id checks it with knownParams (guards.ts), and an id that cannot exist is a 404 drawn
// as the not-found page.
import { render, screen } from '@testing-library/react';
import { MantineProvider } from '@mantine/core';
import { createMemoryRouter, RouterProvider, type LoaderFunctionArgs, type RouteObject } from 'react-router';
import { describe, expect, it } from 'vitest';
import { checksParams, knownParams } from './guards';
import { router } from './router';
import { ErrorPage } from './routes/error-page';
import type { RouteParamsName } from './route-params';

function routesWithParams(routes: RouteObject[]): RouteObject[] {
  return routes.flatMap((route) => [
    ...(route.path?.includes(':') ? [route] : []),
    ...routesWithParams(route.children ?? []),
  ]);
}

async function status(route: RouteParamsName, params: Record<string, string>): Promise<number> {
  const args = { params, request: new Request('http://localhost/x') } as unknown as LoaderFunctionArgs;
  try {
    await knownParams(route)(args);
    return 200;
  } catch (error) {
    return (error as { init?: { status?: number } }).init?.status ?? 0;
  }
}

describe('routes with an id', () => {
  it('every route with a path parameter checks it', () => {
    const routes = routesWithParams(router.routes as RouteObject[]);
    expect(routes.map((route) => route.path)).toContain('courses/:id');
    for (const route of routes) {
      expect(route.loader && checksParams.has(route.loader as never), route.path).toBe(true);
    }
  });

  it('an id that cannot exist is a 404; one that could is left to the screen and the server', async () => {
    for (const id of ['abc', '0', '-1', '1.5', '1e3x', '99999999999999999999']) {
      expect(await status('course', { id }), id).toBe(404);
    }
    expect(await status('course', { id: '99999' })).toBe(200);
    expect(await status('courseRecordings', { courseId: 'abc' })).toBe(404);
    expect(await status('courseRecordings', { courseId: '7' })).toBe(200);
    expect(await status('recording', { id: 'x' })).toBe(404);
    // Room ids and certificate ids are text: only what no id can be is refused.
    expect(await status('room', { roomId: 'office-hours' })).toBe(200);
    expect(await status('certificate', { id: 'A'.repeat(65) })).toBe(404);
    expect(await status('certificate', { id: 'ABCDEFGHJKMNPQRS' })).toBe(200);
  });

  it('draws the not-found page for /courses/abc instead of waiting', async () => {
    const memory = createMemoryRouter(
      [{ path: 'courses/:id', loader: knownParams('course'), Component: () => <p>course</p>, ErrorBoundary: ErrorPage }],
      { initialEntries: ['/courses/abc'] },
    );
    render(
      <MantineProvider>
        <RouterProvider router={memory} />
      </MantineProvider>,
    );
    expect(await screen.findByTestId('not-found')).toBeInTheDocument();
    expect(screen.queryByText('course')).not.toBeInTheDocument();
  });
});
