/** React Query hooks of a signed-in session (the dashboard). */
import { useMutation } from '@tanstack/react-query';
import { signOutEverywhere } from '@/lib/api/auth';
import { freshAccessToken } from '@/lib/session';
import { useAuthStore } from '@/stores/auth';

/** POST v1/auth/logout/everywhere with a fresh access token, then this browser forgets its sign-in too. */
export function useSignOutEverywhere() {
  return useMutation({
    mutationFn: async () => {
      const token = await freshAccessToken();
      if (!token) throw new Error('Your session has ended. Sign in again.');
      return signOutEverywhere(token);
    },
    onSuccess: () => useAuthStore.getState().logout(),
  });
}
