/**
 * React Query hooks of sign-in and of the org call of the CRM's billing links. The calls resolve null on error
 * (lib/api/quiet.ts); the mutations turn that into an Error whose message the form shows.
 */
import { useMutation, useQuery } from '@tanstack/react-query';
import { confirmEmailCode, crmExchange, exchangeToken, sendEmailCode } from '@/lib/api/auth';
import type { SignedInUser } from '@/lib/api/types';
import { readAttribution } from '@/lib/referral';

const SEND_CODE_FAILED = 'We could not send a code to that address. Check it and try again.';
export const SIGN_IN_FAILED = 'We could not finish signing you in. Please ask for a new code and try again.';

export type Callbacks<T, V> = {
  onMutate?: (variables: V) => void;
  onSuccess?: (data: T, variables: V) => unknown;
  onError?: (error: Error, variables: V) => void;
  onSettled?: () => void;
};

/** POST v1/auth/email: e-mails a 6-digit code. */
export function useSendSignInCode(callbacks: Callbacks<{ sent: boolean }, { email: string; captchaToken: string }> = {}) {
  return useMutation({
    mutationFn: async ({ email, captchaToken }: { email: string; captchaToken: string }) => {
      let serverMessage = '';
      const sent = await sendEmailCode(email, captchaToken, { onError: (e) => (serverMessage = e.status && e.status < 500 ? e.message : '') });
      if (!sent) throw new Error(serverMessage || SEND_CODE_FAILED);
      return sent;
    },
    ...callbacks,
  });
}

/**
 * POST v1/auth/email/confirm (the code for a one-time token), then POST v1/auth/token/exchange with the stored
 * attribution: the signed-in user. A wrong or expired code fails with the confirm call's message, meant for the user.
 */
export function useSignInWithCode(callbacks: Callbacks<SignedInUser, { email: string; code: string; captchaToken: string }> = {}) {
  return useMutation({
    mutationFn: async ({ email, code, captchaToken }: { email: string; code: string; captchaToken: string }) => {
      const { token } = await confirmEmailCode(email, code, captchaToken);
      const user = await exchangeToken(token, readAttribution());
      if (!user) throw new Error(SIGN_IN_FAILED);
      return user;
    },
    ...callbacks,
  });
}

/** POST v1/auth/token/crm-exchange for an org of a billing link: asked once, null when refused. */
export function useCrmExchangeQuery(orgId: string | undefined, enabled: boolean) {
  return useQuery({
    queryKey: ['crmExchange', { orgId }],
    queryFn: () => crmExchange(orgId!),
    enabled,
    staleTime: Infinity,
    retry: false,
  });
}
