/**
 * React Query hooks of the Destinations page. Every mutation refreshes the list (and the audit log, which records it);
 * pages show errors as toasts with the server's message through the Outcome callbacks.
 */
import { useQuery } from '@tanstack/react-query';
import { changeDestination, deleteDestination, listDestinations, rotateDestinationSecret, testDestination, type DestinationChange, type RotatedSecret } from '@/lib/api/destinations';
import { orgKeys, useInvalidatingMutation, type Outcome } from './team';

export const destinationKeys = { all: ['org', 'destinations'] as const };

type DestinationList = Awaited<ReturnType<typeof listDestinations>>;

/** Whether a destination is connected but its first message has not got through yet: then the list is news soon. */
const awaitingFirstMessage = (list: DestinationList | undefined) =>
  (list ?? []).some((d) => d.status === 'active' && d.first_message === 'not_yet');

/**
 * The list is read again every 30 s while the page is open: deliveries and errors happen without anyone clicking.
 * While a new destination waits for its first message (usually seconds), every 3 s, so its badge turns "Active" (or
 * says why not) without a reload.
 */
export const useDestinations = () =>
  useQuery({ queryKey: destinationKeys.all, queryFn: listDestinations, refetchInterval: (q) => (awaitingFirstMessage(q.state.data) ? 3_000 : 30_000) });

/** Destination changes refresh the list and the audit log that records them. */
const useDestinationMutation = <V, R>(fn: (v: V) => Promise<R>, outcome?: Outcome<V, R>) => useInvalidatingMutation(fn, [destinationKeys.all, orgKeys.audit], outcome);

export type ChangeVars = { id: string; change: DestinationChange };
export const useChangeDestination = (o?: Outcome<ChangeVars, Awaited<ReturnType<typeof changeDestination>>>) =>
  useDestinationMutation((v: ChangeVars) => changeDestination(v.id, v.change), o);
export const useDeleteDestination = (o?: Outcome<string, { ok: true }>) => useDestinationMutation((id: string) => deleteDestination(id), o);
/** A test changes nothing, but its answer is shown; the list is refreshed anyway (cheap). */
export const useTestDestination = (o?: Outcome<string, Awaited<ReturnType<typeof testDestination>>>) => useDestinationMutation((id: string) => testDestination(id), o);
/** A Webhook destination's new signing secret (the audit log records the rotation). */
export const useRotateSecret = (o?: Outcome<string, RotatedSecret>) => useDestinationMutation((id: string) => rotateDestinationSecret(id), o);
