// Server state of the admin area: each list is one page of a filtered query; each action refreshes
// what it changed and toasts the server's message.
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { apiRoutes } from '@mooz/contract/api-routes';
import type { createUserBody } from '@mooz/contract/auth';
import type { z } from 'zod';
import { messages } from '@mooz/contract/messages';
import { call, messageOf } from '../../lib/api';
import { translateServerMessage } from '../../lib/server-message';
import { notify } from '../../lib/toasts';

/** How many rows a page of an admin list shows. */
export const pageSize = 20;

type ListRoute = typeof apiRoutes.admin.users | typeof apiRoutes.admin.courses | typeof apiRoutes.admin.payments | typeof apiRoutes.admin.audit;

/** Filters as the page holds them: empty strings are "any". */
const cleaned = (filters: Record<string, string | number | undefined>) =>
  Object.fromEntries(Object.entries(filters).filter(([, value]) => value !== '' && value !== undefined));

function useAdminList<R extends ListRoute>(route: R, filters: Record<string, string | undefined>, page: number) {
  const query = { ...cleaned(filters), limit: pageSize, offset: (page - 1) * pageSize };
  return useQuery({
    queryKey: ['admin', route.path, query],
    // The page's filters were chosen from the values the declared query takes.
    queryFn: ({ signal }) => call(route, { query, signal } as never),
    placeholderData: keepPreviousData,
  });
}

export const useAdminUsers = (filters: { q: string; role: string; status: string }, page: number) => useAdminList(apiRoutes.admin.users, filters, page);
export const useAdminCourses = (filters: { q: string; state: string }, page: number) => useAdminList(apiRoutes.admin.courses, filters, page);
export const useAdminPayments = (filters: { q: string; status: string }, page: number) => useAdminList(apiRoutes.admin.payments, filters, page);
export const useAuditLog = (page: number) => useAdminList(apiRoutes.admin.audit, {}, page);

export function useAdminOverview() {
  return useQuery({ queryKey: ['admin', 'overview'], queryFn: ({ signal }) => call(apiRoutes.admin.overview, { signal }) });
}

/** An admin action: the server's message as a toast either way, and every admin list read again. */
function useAdminAction<V>(send: (values: V) => Promise<{ message?: string }>) {
  const client = useQueryClient();
  const { t } = useTranslation();
  return useMutation({
    mutationFn: send,
    onSuccess: async (result) => {
      if (result.message) notify.success(translateServerMessage(t, result.message));
      await client.invalidateQueries({ queryKey: ['admin'] });
    },
    onError: (error) => notify.error(translateServerMessage(t, messageOf(error, messages.somethingWentWrong))),
  });
}

export const useDeactivateUser = () => useAdminAction((id: number) => call(apiRoutes.admin.deactivateUser, { params: { id } }));
export const useReactivateUser = () => useAdminAction((id: number) => call(apiRoutes.admin.reactivateUser, { params: { id } }));
export const useRefundPayment = () => useAdminAction((id: string) => call(apiRoutes.admin.refundPayment, { params: { id } }));

/** Creating staff: field errors stay with the form (create-user-modal.tsx), so no error toast here. */
export function useCreateUser() {
  const client = useQueryClient();
  const { t } = useTranslation();
  return useMutation({
    mutationFn: (body: z.input<typeof createUserBody>) => call(apiRoutes.admin.createUser, { body }),
    onSuccess: async (result) => {
      if (result.message) notify.success(translateServerMessage(t, result.message));
      await client.invalidateQueries({ queryKey: ['admin'] });
    },
  });
}
