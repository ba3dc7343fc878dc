/**
 * Dashboard component tests signed in against a loopback API: an access token the browser code can read (unsigned:
 * the fake does not check it), fresh stores before each test, and after each the toasts cleared and the file's API fake
 * stopped.
 *
 *   const api = signedInWithApiFake();
 *   await api.start([route('GET', '/api/v1/org', ok(org))]);
 *   api.fake!.requests …
 */
import { act } from '@testing-library/react';
import toast from 'react-hot-toast';
import { afterEach, beforeEach, vi } from 'vitest';
import { encode as encodeBase64Url } from 'jose/base64url';
import { startApiFake, type ApiFake } from './apiFake';
import { resetStores } from '@/tests/helpers/resetStores';
import { useAuthStore } from '@/stores/auth';

/** A token with these claims (an hour left), as the sign-in gives it; its signature is not checked here. */
export const unsignedJwt = (claims: Record<string, unknown>) =>
  ['eyJhbGciOiJIUzI1NiJ9', encodeBase64Url(JSON.stringify({ exp: Math.floor(Date.now() / 1000) + 3600, ...claims })), 'signature'].join('.');

export type SignedInApi = { fake: ApiFake | undefined; start(handlers: Parameters<typeof startApiFake>[0]): Promise<ApiFake> };

export function signedInWithApiFake(email = 'ana@example.com', org = 'org_1'): SignedInApi {
  const api: SignedInApi = {
    fake: undefined,
    async start(handlers) {
      api.fake = await startApiFake(handlers);
      return api.fake;
    },
  };
  beforeEach(() => {
    resetStores();
    useAuthStore.getState().setAuthData({ authToken: unsignedJwt({ email, org, scope: 'full' }), email });
  });
  afterEach(async () => {
    act(() => toast.remove());
    api.fake?.restore();
    await api.fake?.close();
    api.fake = undefined;
    vi.restoreAllMocks();
  });
  return api;
}
