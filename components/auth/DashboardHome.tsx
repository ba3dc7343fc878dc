/**
 * The signed-in user's home at /dashboard. Arriving from the header's Dashboard link, the URL carries
 * `token=home__<token>`: it becomes the stored auth token and is removed from the address bar at once (so it is not
 * left in history, bookmarks or screenshots). Waits for the persisted user to load first, so a stored session is
 * never mistaken for "signed out" and the fresh token is not overwritten by the stored one.
 */
import Link from 'next/link';
import { useRouter } from 'next/router';
import { useEffect, useState, type ReactNode } from 'react';
import { tokenFromDashboardParam, urlWithoutToken } from '@/lib/dashboardLink';
import { readTokenClaims } from '@/lib/tokenClaims';
import { useAuthHydrated, useAuthStore } from '@/stores/auth';
import styles from './AuthForms.module.css';

/** Adopts the URL's token once the stored user is loaded; returns true when the page knows who is signed in. */
export function useDashboardSession(): boolean {
  const router = useRouter();
  const hydrated = useAuthHydrated();
  const [ready, setReady] = useState(false);
  useEffect(() => {
    if (!hydrated || !router.isReady) return;
    const token = tokenFromDashboardParam(router.query.token);
    if (token) {
      const current = useAuthStore.getState().authData;
      const claimedEmail = readTokenClaims(token)?.email ?? null;
      // A token for someone else replaces the stored user instead of being mixed into their data.
      const sameUser = !claimedEmail || !current.email || claimedEmail === current.email;
      useAuthStore.getState().setAuthData(sameUser ? { ...current, authToken: token, email: current.email ?? claimedEmail ?? undefined } : { authToken: token, email: claimedEmail ?? undefined });
      window.history.replaceState(window.history.state, '', urlWithoutToken(window.location.href));
    }
    setReady(true);
  }, [hydrated, router.isReady, router.query.token]);
  return ready;
}

export default function DashboardHome({ children }: { children?: ReactNode }) {
  const ready = useDashboardSession();
  const authData = useAuthStore((s) => s.authData);
  if (!ready) {
    return (
      <div className={styles.page}>
        <p role="status" className={`${styles.card} ${styles.lead}`}>
          Loading your dashboard…
        </p>
      </div>
    );
  }
  if (!authData.authToken) {
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
  const claims = readTokenClaims(authData.authToken);
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
      </div>
    </div>
  );
}
