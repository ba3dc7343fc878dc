/**
 * React Query hooks of the invitee's side: the open invitations to the signed-in address (the dashboard's banner),
 * accept and decline. Accepting answers a new session (every earlier one has ended): it is stored, and every query is
 * read again for the new organisation.
 */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { acceptMyInvitation, declineMyInvitation, listMyInvitations, type JoinedSession } from '@/lib/api/invitations';
import { storeSession } from '@/stores/auth';

export const myInvitationsKey = ['invitations', 'mine'] as const;

export const useMyInvitations = (enabled: boolean) => useQuery({ queryKey: myInvitationsKey, queryFn: listMyInvitations, enabled });

export function useAcceptInvitation(onJoined: (session: JoinedSession) => void) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (v: { id: string; deleteCurrent: boolean }) => acceptMyInvitation(v.id, v.deleteCurrent),
    onSuccess: async (session) => {
      storeSession(session);
      onJoined(session);
      await client.invalidateQueries();
    },
  });
}

export function useDeclineInvitation() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => declineMyInvitation(id),
    onSuccess: () => client.invalidateQueries({ queryKey: myInvitationsKey }),
  });
}
