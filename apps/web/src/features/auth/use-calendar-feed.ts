// Server state of the caller's calendar feed: its address (or none), making a new one, turning it off.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiRoutes } from '@mooz/contract/api-routes';
import { call } from '../../lib/api';

const feedKey = ['calendar-feed'] as const;

export function useCalendarFeed() {
  return useQuery({ queryKey: feedKey, queryFn: ({ signal }) => call(apiRoutes.calendar.feed, { signal }) });
}

export function useCreateCalendarFeed() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: () => call(apiRoutes.calendar.createFeed),
    onSuccess: (response) => client.setQueryData(feedKey, { data: response.data }),
  });
}

export function useRevokeCalendarFeed() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: () => call(apiRoutes.calendar.revokeFeed),
    onSuccess: () => client.setQueryData(feedKey, { data: null }),
  });
}
