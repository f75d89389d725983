// Why the meeting lobby hands its navigate to a memoised child, and why the app frame's signed-out
// watch is a component of its own (a newcomer's page drew for nothing while the others'
// offers waited): what calls useNavigate is drawn again at every change of the router's state, such
// as the "loading" one a click starts while the next screen's guard runs; the navigate it returns is
// the same each time, so a memoised child handed it is not.
import { act, render, screen } from '@testing-library/react';
import { memo } from 'react';
import { createMemoryRouter, Outlet, RouterProvider, useNavigate, useNavigation, type NavigateFunction } from 'react-router';
import { describe, expect, it } from 'vitest';

const drawn = { page: 0, child: 0 };
const navigates = new Set<NavigateFunction>();

const Child = memo(function Child({ navigate }: { navigate: NavigateFunction }) {
  drawn.child += 1;
  navigates.add(navigate);
  return <p>lobby</p>;
});

function Page() {
  drawn.page += 1;
  return <Child navigate={useNavigate()} />;
}

function Root() {
  return (
    <>
      {useNavigation().state === 'loading' && <span role="progressbar" />}
      <Outlet />
    </>
  );
}

describe('a navigation that loads', () => {
  it('draws again what calls useNavigate, not the memoised child it hands navigate to', async () => {
    let release = () => {};
    const guard = new Promise<null>((resolve) => (release = () => resolve(null)));
    const router = createMemoryRouter(
      [
        {
          Component: Root,
          children: [
            { path: 'lobby', Component: Page },
            { path: 'room', loader: () => guard, Component: () => <p>room</p> },
          ],
        },
      ],
      { initialEntries: ['/lobby'] },
    );
    render(<RouterProvider router={router} />);
    await screen.findByText('lobby');
    const before = { ...drawn };

    await act(async () => void router.navigate('/room'));
    expect(screen.getByRole('progressbar')).toBeInTheDocument();
    expect(drawn.page).toBeGreaterThan(before.page);
    expect(drawn.child).toBe(before.child);
    expect(navigates.size).toBe(1);

    await act(async () => release());
    expect(await screen.findByText('room')).toBeInTheDocument();
  });
});
