/**
 * React Query hooks of the organisation's apps. Adding or removing an app changes the apps list and the inbox (its
 * app filter and its reviews), so both are invalidated.
 */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { addOrgApp, listOrgApps, removeOrgApp, type NewOrgApp, type OrgApp } from '@/lib/api/orgApps';
import type { Outcome } from './team';

export const orgAppKeys = { all: ['org', 'apps'] as const };
export const reviewKeys = { all: ['org', 'reviews'] as const };

export const useOrgApps = () => useQuery({ queryKey: orgAppKeys.all, queryFn: listOrgApps });

function useAppsMutation<V, R>(fn: (v: V) => Promise<R>, outcome: Outcome<V, R> = {}) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: fn,
    onSuccess: async (result, vars) => {
      outcome.onSuccess?.(result, vars);
      await Promise.all([client.invalidateQueries({ queryKey: orgAppKeys.all }), client.invalidateQueries({ queryKey: reviewKeys.all })]);
    },
    onError: (e) => outcome.onError?.(e),
  });
}

export const useAddOrgApp = (o?: Outcome<NewOrgApp, OrgApp>) => useAppsMutation((v: NewOrgApp) => addOrgApp(v), o);
export const useRemoveOrgApp = (o?: Outcome<string, { ok: true }>) => useAppsMutation((key: string) => removeOrgApp(key), o);
