/**
 * React Query hooks of the organisation's apps. Adding or removing an app changes the apps list and the inbox (its
 * app filter and its reviews), so both are invalidated.
 */
import { useQuery } from '@tanstack/react-query';
import { addOrgApp, deleteAppCredentials, listOrgApps, putAppCredentials, removeOrgApp, type AppCredentials, type NewOrgApp, type OrgApp } from '@/lib/api/orgApps';
import { useInvalidatingMutation, type Outcome } from './team';

export const orgAppKeys = { all: ['org', 'apps'] as const };
export const reviewKeys = { all: ['org', 'reviews'] as const };

export const useOrgApps = () => useQuery({ queryKey: orgAppKeys.all, queryFn: listOrgApps });

const changes = [orgAppKeys.all, reviewKeys.all];
export const useAddOrgApp = (o?: Outcome<NewOrgApp, OrgApp>) => useInvalidatingMutation((v: NewOrgApp) => addOrgApp(v), changes, o);
export const useRemoveOrgApp = (o?: Outcome<string, { ok: true }>) => useInvalidatingMutation((key: string) => removeOrgApp(key), changes, o);

/** Store credentials change how the app is read (and what its list entry says), not the reviews already stored. */
export const useSetAppCredentials = (o?: Outcome<{ key: string; credentials: AppCredentials }, OrgApp>) =>
  useInvalidatingMutation((v: { key: string; credentials: AppCredentials }) => putAppCredentials(v.key, v.credentials), [orgAppKeys.all], o);
export const useRemoveAppCredentials = (o?: Outcome<string, { ok: true }>) => useInvalidatingMutation((key: string) => deleteAppCredentials(key), [orgAppKeys.all], o);
