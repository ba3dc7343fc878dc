/**
 * React Query hooks of the Team page. Every mutation invalidates what it changes; errors surface as toasts with the
 * server's message (the page does that), so the hooks stay plain.
 */
import { useInfiniteQuery, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  auditLog,
  cancelInvitation,
  changeMemberRole,
  getOrganisation,
  inviteMember,
  deleteOrganisation,
  leaveOrganisation,
  listInvitations,
  listMembers,
  removeMember,
  renameOrganisation,
  type Departure,
  type InviteAnswer,
  type OrgMember,
  type OrgRole,
} from '@/lib/api/org';

export const orgKeys = {
  org: ['org'] as const,
  members: ['org', 'members'] as const,
  invitations: ['org', 'invitations'] as const,
  audit: ['org', 'audit'] as const,
};

export const useOrganisation = () => useQuery({ queryKey: orgKeys.org, queryFn: getOrganisation });
export const useMembers = () => useQuery({ queryKey: orgKeys.members, queryFn: listMembers });
export const useInvitations = (enabled: boolean) => useQuery({ queryKey: orgKeys.invitations, queryFn: listInvitations, enabled });
export const useAuditLog = (enabled: boolean) =>
  useInfiniteQuery({
    queryKey: orgKeys.audit,
    queryFn: ({ pageParam }) => auditLog(pageParam),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last) => (last.has_more ? last.data.at(-1)?.id : undefined),
    enabled,
  });

/** What a page does when a team mutation ends. Kept on the mutation itself, so it runs even when the row that started it is gone. */
export type Outcome<V, R> = { onSuccess?: (result: R, vars: V) => void; onError?: (error: Error) => void };

/** A mutation that refreshes these queries when it succeeds (after the page's own onSuccess). */
export function useInvalidatingMutation<V, R>(fn: (v: V) => Promise<R>, keys: readonly (readonly unknown[])[], outcome: Outcome<V, R> = {}) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: fn,
    onSuccess: async (result, vars) => {
      outcome.onSuccess?.(result, vars);
      await Promise.all(keys.map((queryKey) => client.invalidateQueries({ queryKey })));
    },
    onError: (e) => outcome.onError?.(e),
  });
}

/** A mutation that refreshes the whole organisation's data when it succeeds (team changes show in several lists). */
const useOrgMutation = <V, R>(fn: (v: V) => Promise<R>, outcome: Outcome<V, R> = {}) => useInvalidatingMutation(fn, [orgKeys.org], outcome);

export const useRenameOrganisation = (o?: Outcome<string, { name: string }>) => useOrgMutation((name: string) => renameOrganisation(name), o);
export const useInviteMember = (o?: Outcome<{ email: string; role: 'admin' | 'member' }, InviteAnswer>) => useOrgMutation((v: { email: string; role: 'admin' | 'member' }) => inviteMember(v), o);
export const useCancelInvitation = (o?: Outcome<string, { ok: true }>) => useOrgMutation((id: string) => cancelInvitation(id), o);
export const useChangeRole = (o?: Outcome<{ id: string; role: OrgRole }, OrgMember>) => useOrgMutation((v: { id: string; role: OrgRole }) => changeMemberRole(v.id, v.role), o);
export const useRemoveMember = (o?: Outcome<string, Departure>) => useOrgMutation((id: string) => removeMember(id), o);
export const useDeleteOrganisation = (o?: Outcome<string, { ok: true }>) =>
  useMutation({ mutationFn: deleteOrganisation, onSuccess: (r, v) => o?.onSuccess?.(r, v), onError: (e) => o?.onError?.(e) });
export const useLeaveOrganisation = (o?: Outcome<undefined, { ok: true }>) => useMutation({ mutationFn: leaveOrganisation, onSuccess: () => o?.onSuccess?.({ ok: true }, undefined), onError: (e) => o?.onError?.(e) });
