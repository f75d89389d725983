import { Outlet, ScrollRestoration, useNavigation } from 'react-router';

/** A thin bar at the top while the next screen's chunk or loader is on its way. */
function NavigationProgress() {
  const navigation = useNavigation();
  if (navigation.state === 'idle') return null;
  return <div className="mooz-route-progress" role="progressbar" aria-hidden="true" />;
}

export function RootRoute() {
  return (
    <>
      <NavigationProgress />
      <Outlet />
      <ScrollRestoration />
    </>
  );
}
