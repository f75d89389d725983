// TanStack Query for every screen that reads the API through it: all but the account screens (login,
// sign-up, verification, forgotten password), which post their forms with lib/api.ts alone, so that the
// first visit to /login does not download it. One client for the whole session, as before.
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { Outlet } from 'react-router';

const queryClient = new QueryClient({
  defaultOptions: { queries: { retry: 1, refetchOnWindowFocus: false, staleTime: 30_000 } },
});

export function QueryRoot() {
  return (
    <QueryClientProvider client={queryClient}>
      <Outlet />
    </QueryClientProvider>
  );
}
