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
  leaveOrganisation,
  listInvitations,
  listMembers,
  removeMember,
  renameOrganisation,
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

/** A mutation that refreshes the whole organisation's data when it succeeds (team changes show in several lists). */
function useOrgMutation<V, R>(fn: (v: V) => Promise<R>) {
  const client = useQueryClient();
  return useMutation({ mutationFn: fn, onSuccess: () => client.invalidateQueries({ queryKey: orgKeys.org }) });
}

export const useRenameOrganisation = () => useOrgMutation((name: string) => renameOrganisation(name));
export const useInviteMember = () => useOrgMutation((v: { email: string; role: 'admin' | 'member' }) => inviteMember(v));
export const useCancelInvitation = () => useOrgMutation((id: string) => cancelInvitation(id));
export const useChangeRole = () => useOrgMutation((v: { id: string; role: OrgRole }) => changeMemberRole(v.id, v.role));
export const useRemoveMember = () => useOrgMutation((id: string) => removeMember(id));
export const useLeaveOrganisation = () => useMutation({ mutationFn: leaveOrganisation });
