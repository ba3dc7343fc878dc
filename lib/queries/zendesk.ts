/** React Query hooks of the Zendesk connection: every change answers the new status, which replaces the cached one. */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { connectZendesk, createTicket, disconnectZendesk, getZendesk, saveZendeskSecret, type ZendeskStatus } from '@/lib/api/zendesk';
import { reviewKeys } from './orgApps';

export const zendeskKeys = { status: ['org', 'integrations', 'zendesk'] as const };

export const useZendesk = () => useQuery({ queryKey: zendeskKeys.status, queryFn: getZendesk });

function useStatusMutation<V>(fn: (v: V) => Promise<ZendeskStatus>) {
  const client = useQueryClient();
  return useMutation({ mutationFn: fn, onSuccess: (s) => client.setQueryData(zendeskKeys.status, s) });
}
export const useConnectZendesk = () => useStatusMutation(connectZendesk);
export const useSaveZendeskSecret = () => useStatusMutation(saveZendeskSecret);
export function useDisconnectZendesk() {
  const client = useQueryClient();
  return useMutation({ mutationFn: disconnectZendesk, onSuccess: () => client.invalidateQueries({ queryKey: zendeskKeys.status }) });
}
export function useCreateTicket() {
  const client = useQueryClient();
  return useMutation({ mutationFn: createTicket, onSettled: () => client.invalidateQueries({ queryKey: reviewKeys.all }) });
}
