/**
 * React Query hooks of the connect flow: the server's optional buttons, a connection's status, connecting and starting
 * an OAuth install.
 */
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { getDestination } from '@/lib/api/connect';
import { getPublicConfig } from '@/lib/api/oauth';
import type { ApiBody } from '@/lib/api/openapi';
import type { ConnectResult, Destination, DestinationState } from '@/lib/api/types';

const publicConfigQuery = () =>
  queryOptions({ queryKey: ['publicConfig'], queryFn: getPublicConfig, staleTime: 10 * 60_000 });

export function usePublicConfigQuery() {
  return useQuery(publicConfigQuery());
}

/**
 * While the welcome is on its way the status is read every 2 s; after that every 15 s (errors can come later). An
 * e-mail destination waiting for its mailbox is read every 5 s, so the card turns connected soon after the click.
 */
function destinationRefetchMs(d: Destination | undefined): number {
  if (!d) return 2000;
  if (d.status === 'pending_confirmation') return 5000;
  const settled = d.welcome === 'delivered' && d.queued === 0;
  return settled || d.status === 'disabled' ? 15_000 : 2000;
}

/** The fields of GET v1/public/destination/{id} the status card reads. */
export type DestinationDetails = Destination & DestinationState;

const destinationQuery = (id: string | null) =>
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

/** A connect answer's `status` is the destination's status as GET v1/public/destination/{id} answers it. */
export function destinationStatusOf(result: Pick<ConnectResult, 'status'>): DestinationDetails | null {
  const status: unknown = result.status;
  return status && typeof status === 'object' && typeof (status as { status?: unknown }).status === 'string' ? (status as DestinationDetails) : null;
}

/**
 * POST v1/oauth/platform/connect with the encoded connection payload. The answer carries the connection's status:
 * it seeds the destination's query, so the status card shows it at once and keeps it fresh from there.
 */
export function useConnectMutation({ signedIn = false }: { /** Send the session: the organisation's connection. */ signedIn?: boolean } = {}) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (request: ApiBody<'/api/v1/oauth/platform/connect', 'post'>) => {
      const { connectPlatform } = await import('@/lib/api/connect');
      const session = signedIn ? await (await import('@/lib/api/org')).signedIn() : undefined;
      const result = await connectPlatform(request, session);
      return { result, status: destinationStatusOf(result) };
    },
    onSuccess: ({ result, status }) => {
      if (status) queryClient.setQueryData(destinationKey(result.destination_id), status);
    },
  });
}

/**
 * POST v1/oauth/authorize: the platform's approval page, with the connection payload signed into `state` (and, with
 * `signedIn`, the person: the install then finishes only in their session, for their organisation).
 */
export function useStartOAuthMutation({ signedIn = false }: { signedIn?: boolean } = {}) {
  return useMutation({
    mutationFn: async (request: ApiBody<'/api/v1/oauth/authorize', 'post'>) => {
      const { startOAuth } = await import('@/lib/api/oauth');
      const session = signedIn ? await (await import('@/lib/api/org')).signedIn() : undefined;
      return startOAuth(request, session);
    },
  });
}
