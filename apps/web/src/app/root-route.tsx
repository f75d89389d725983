import { Outlet, ScrollRestoration, useNavigation } from 'react-router';
import { DocumentTitle } from './document-title';

/** A thin bar at the top while the next screen's chunk or loader is on its way. */
function NavigationProgress() {
  const navigation = useNavigation();
  if (navigation.state === 'idle') return null;
  return <div className="mooz-route-progress" role="progressbar" aria-hidden="true" />;
}

export function RootRoute() {
  return (
    <>
      <DocumentTitle />
      <NavigationProgress />
      <Outlet />
      <ScrollRestoration />
    </>
  );
}
