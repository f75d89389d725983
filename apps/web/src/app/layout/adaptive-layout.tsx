// Pages that anyone may open (deep links, 404, not authorized) keep the frame the visitor is used to.
import '../../styles/mantine-more';
import { lazy, Suspense } from 'react';
import { useSignedIn } from '../../lib/use-stored-auth';
import { LoadingScreen } from '../loading-screen';

const AppLayout = lazy(async () => ({ default: (await import('../signed-in')).AppLayout }));
const PublicLayout = lazy(async () => ({ default: (await import('./public-layout')).PublicLayout }));

export function AdaptiveLayout() {
  const signedIn = useSignedIn();
  return <Suspense fallback={<LoadingScreen />}>{signedIn ? <AppLayout /> : <PublicLayout />}</Suspense>;
}
