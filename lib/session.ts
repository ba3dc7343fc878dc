/**
 * Keeps the browser's access token fresh. Access tokens live 15 minutes; the refresh token stored beside them in
 * `arb-storage` renews them (POST v1/auth/token/renew) shortly before they run out — on demand before a signed-in
 * call (freshAccessToken) and on a timer while a signed-in page is open (keepSessionFresh). When the session was
 * ended elsewhere (logout, sign out everywhere) renewing answers 401 and the stored tokens are left as they are:
 * the next call fails and the page says to sign in again.
 */
import { renewAccessToken } from '@/lib/api/auth';
import { readTokenClaims } from '@/lib/tokenClaims';
import { useAuthStore } from '@/stores/auth';

/** Renew when less than this is left, so a call never starts with a token that dies on the way. */
const RENEW_MARGIN_MS = 60_000;

let renewing: Promise<string | null> | null = null;

function needsRenewal(token: string | undefined, now = Date.now()): boolean {
  if (!token) return true;
  const expiresAt = readTokenClaims(token)?.expiresAt;
  return !expiresAt || expiresAt.getTime() - now < RENEW_MARGIN_MS;
}

/** One renewal at a time per tab: parallel callers share it. Null when there is no live session to renew. */
function renewNow(): Promise<string | null> {
  renewing ??= (async () => {
    const { refreshToken } = useAuthStore.getState().authData;
    if (!refreshToken) return null;
    const authToken = await renewAccessToken(refreshToken);
    const current = useAuthStore.getState().authData;
    // Only if the same sign-in is still stored (not replaced or logged out meanwhile).
    if (authToken && current.refreshToken === refreshToken) useAuthStore.getState().setAuthData({ ...current, authToken });
    return authToken;
  })().finally(() => {
    renewing = null;
  });
  return renewing;
}

/** The stored access token, renewed first when it is about to run out; `token` when it is not the stored one. */
export async function freshAccessToken(token?: string): Promise<string | null> {
  const stored = useAuthStore.getState().authData;
  const current = token ?? stored.authToken;
  if (current && current !== stored.authToken) return current; // e.g. a billing-only token: not renewable
  if (!needsRenewal(current)) return current ?? null;
  return (await renewNow()) ?? current ?? null;
}

/** While a signed-in page is open, renew a minute before each expiry. Returns the stop function (for useEffect). */
export function keepSessionFresh(): () => void {
  let timer: ReturnType<typeof setTimeout> | undefined;
  let stopped = false;
  const schedule = () => {
    if (stopped) return;
    const expiresAt = readTokenClaims(useAuthStore.getState().authData.authToken ?? '')?.expiresAt?.getTime();
    // Renewal failed and the token is past its margin: the session has ended; stop asking.
    if (!expiresAt || expiresAt - Date.now() < RENEW_MARGIN_MS) return;
    const wait = expiresAt - Date.now() - RENEW_MARGIN_MS;
    timer = setTimeout(() => {
      void freshAccessToken().finally(schedule);
    }, Math.min(wait, 2 ** 31 - 1));
  };
  void freshAccessToken().finally(schedule);
  return () => {
    stopped = true;
    clearTimeout(timer);
  };
}
