// How many people a meeting room or class session may hold on this server: the SFU's limit when it
// has one, a mesh's otherwise (GET /api/meetings/capacity/). The forms bound their capacity with it
// and a teacher is told before class when a session has more seats than that.
import { useQuery } from '@tanstack/react-query';
import { apiRoutes } from '@mooz/contract/api-routes';
import { limits } from '@mooz/contract/limits';
import { call } from './api';

export function useMeetingCapacity(enabled = true) {
  const query = useQuery({
    queryKey: ['meeting-capacity'],
    queryFn: ({ signal }) => call(apiRoutes.meetings.capacity, { signal }),
    staleTime: 10 * 60_000,
    enabled,
  });
  // Until the server says, the mesh's limit: a form never offers more than may be had.
  return { maxCapacity: query.data?.data.max_capacity ?? limits.meshMaxCapacity, sfu: query.data?.data.sfu ?? false };
}
