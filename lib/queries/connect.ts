/** React Query hooks of the connect flow (STYLE.md #2): the server's optional buttons and a connection's status. */
import { queryOptions, useQuery } from '@tanstack/react-query';
import { getDestination } from '@/lib/api/connect';
import { getPublicConfig } from '@/lib/api/oauth';
import type { Destination, DestinationState } from '@/lib/api/types';

export const publicConfigQuery = () =>
  queryOptions({ queryKey: ['publicConfig'], queryFn: getPublicConfig, staleTime: 10 * 60_000 });

export function usePublicConfigQuery() {
  return useQuery(publicConfigQuery());
}

/**
 * While the welcome is on its way the status is read every 2 s; after that every 15 s (errors can come later). An
 * e-mail destination waiting for its mailbox is read every 5 s, so the card turns connected soon after the click.
 */
export function destinationRefetchMs(d: Destination | undefined): number {
  if (!d) return 2000;
  if (d.status === 'pending_confirmation') return 5000;
  const settled = d.welcome === 'delivered' && d.queued === 0;
  return settled || d.status === 'disabled' ? 15_000 : 2000;
}

/** The fields of GET v1/public/destination/{id} the status card reads. */
export type DestinationDetails = Destination & DestinationState;

export const destinationQuery = (id: string | null) =>
  queryOptions({
    queryKey: ['destination', { id }],
    queryFn: async () => (await getDestination(id!)) as DestinationDetails,
    enabled: Boolean(id),
    refetchInterval: (q) => destinationRefetchMs(q.state.data),
  });

/** Keys of this module's queries, for seeding and invalidating. */
export const destinationKey = (id: string) => destinationQuery(id).queryKey;

export function useDestinationQuery(id: string | null) {
  return useQuery(destinationQuery(id));
}
