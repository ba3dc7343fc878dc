/**
 * The signed-in user's home at /dashboard. Arriving from the header's Dashboard link, the URL carries
 * `token=home__<code>`, a one-time hand-off code: it is removed from the address bar in a layout effect (before the
 * app shell records the page view), then exchanged by POST v1/auth/token/handoff for the session's tokens, which
 * replace the stored auth data. Waits for the persisted user to load first, so a stored session is never mistaken for
 * "signed out". While open, the access token is renewed before it runs out. "Sign out everywhere" ends every session
 * of the account (other browsers and devices too).
 */
import Link from 'next/link';
import { useEffect, useLayoutEffect, useRef, useState, type ReactNode } from 'react';
import { exchangeHandoffCode } from '@/lib/api/auth';
import { takeCodeFromAddressBar } from '@/lib/dashboardLink';
import { useSignOutEverywhere } from '@/lib/queries/session';
import { keepSessionFresh } from '@/lib/session';
import { readTokenClaims } from '@/lib/tokenClaims';
import { useAuthHydrated, useAuthStore } from '@/stores/auth';
import styles from './AuthForms.module.css';

// Layout effects run before every passive effect of the same commit, the app shell's page view included.
const useEarlyEffect = typeof window === 'undefined' ? useEffect : useLayoutEffect;

/** Exchanges the URL's hand-off code once the stored user is loaded; returns true when the page knows who is signed in. */
function useDashboardSession(): boolean {
  const hydrated = useAuthHydrated();
  const code = useRef<string | null | undefined>(undefined);
  const exchanging = useRef(false);
  const [ready, setReady] = useState(false);
  useEarlyEffect(() => {
    if (code.current === undefined) code.current = takeCodeFromAddressBar();
  }, []);
  useEffect(() => {
    if (!hydrated || ready || exchanging.current) return;
    const handoff = code.current;
    code.current = null;
    if (!handoff) {
      setReady(true);
      return;
    }
    exchanging.current = true;
    void exchangeHandoffCode(handoff).then((user) => {
      // A used or expired code leaves the stored session (if any) as it was.
      if (user) {
        useAuthStore.getState().setAuthData({
          authToken: user.authToken,
          refreshToken: user.refreshToken,
          email: user.email,
          ...(user.name ? { name: user.name } : {}),
          ...(user.displayName ? { displayName: user.displayName } : {}),
        });
      }
      setReady(true);
    });
  }, [hydrated, ready]);
  return ready;
}

function SignOutEverywhere() {
  const signOut = useSignOutEverywhere();
  const busy = signOut.isPending;
  const error = signOut.error ? signOut.error.message || 'We could not sign you out everywhere. Try again.' : '';
  return (
    <div className={styles.lead}>
      <button type="button" className={styles.primary} disabled={busy} aria-busy={busy} onClick={() => signOut.mutate()}>
        {busy ? 'Signing out everywhere…' : 'Sign out everywhere'}
      </button>
      <p>Ends every session of your account: this browser and every other device.</p>
      {error ? (
        <p role="alert" className={styles.error}>
          {error}
        </p>
      ) : null}
    </div>
  );
}

export default function DashboardHome({ children }: { children?: ReactNode }) {
  const ready = useDashboardSession();
  const authData = useAuthStore((s) => s.authData);
  const claims = authData.authToken ? readTokenClaims(authData.authToken) : null;
  // A billing-only token (from /subscribe) opens no dashboard.
  const signedIn = !!authData.authToken && claims?.scope !== 'billing';
  const renewable = signedIn && !!authData.refreshToken;
  useEffect(() => (ready && renewable ? keepSessionFresh() : undefined), [ready, renewable]);

  if (!ready) {
    return (
      <div className={styles.page}>
        <p role="status" className={`${styles.card} ${styles.lead}`}>
          Loading your dashboard…
        </p>
      </div>
    );
  }
  if (!signedIn) {
    return (
      <div className={styles.page}>
        <div className={styles.card}>
          <h1 className={styles.heading}>Your dashboard</h1>
          <p className={styles.lead}>Sign in to see the apps you follow and where their reviews go.</p>
          <Link href="/login?redirect_to=/dashboard" className={styles.primary}>
            Sign in
          </Link>
        </div>
      </div>
    );
  }
  const email = authData.email ?? claims?.email ?? '';
  return (
    <div className={styles.page}>
      <div className={`${styles.card} ${styles.wide}`}>
        <h1 className={styles.heading}>Your dashboard</h1>
        <dl className={styles.facts}>
          <dt>Signed in as</dt>
          <dd>{email}</dd>
          {claims?.orgId ? (
            <>
              <dt>Organisation</dt>
              <dd>
                <code>{claims.orgId}</code>
              </dd>
            </>
          ) : null}
        </dl>
        {children}
        <p className={styles.lead}>
          <Link href="/">Add another app</Link> · <Link href="/pricing">Plans and pricing</Link> · <Link href="/help">Help</Link>
        </p>
        {renewable ? <SignOutEverywhere /> : null}
      </div>
    </div>
  );
}
