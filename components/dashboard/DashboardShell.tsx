/**
 * The frame of every signed-in page under /dashboard: waits for the stored session (and a hand-off code in the URL,
 * see useDashboardSession), keeps the access token fresh while open, asks visitors who are not signed in to sign in,
 * and puts the dashboard's navigation beside the page. Each page adds one line to DASHBOARD_LINKS when it exists.
 * Until the session is known it shows the dashboard's skeleton, never a signed-out screen (the app bar around it:
 * components/layout/AppLayout.tsx).
 */
import Link from 'next/link';
import { useRouter } from 'next/router';
import { useEffect, type ReactNode } from 'react';
import { useDashboardSession } from './useDashboardSession';
import InvitationBanner from './InvitationBanner';
import { keepSessionFresh } from '@/lib/session';
import { readTokenClaims } from '@/lib/tokenClaims';
import { useAuthStore } from '@/stores/auth';
import auth from '@/components/auth/AuthForms.module.css';
import styles from './Dashboard.module.css';

export const DASHBOARD_LINKS = [
  { href: '/dashboard', label: 'Overview' },
  { href: '/dashboard/apps', label: 'Apps' },
  { href: '/dashboard/reviews', label: 'Reviews' },
  { href: '/dashboard/rules', label: 'Rules' },
  { href: '/dashboard/replies', label: 'Replies' },
  { href: '/dashboard/ask', label: 'Ask ARB' },
  { href: '/dashboard/destinations', label: 'Destinations' },
  { href: '/dashboard/integrations', label: 'Integrations' },
  { href: '/dashboard/team', label: 'Team' },
  { href: '/dashboard/api-keys', label: 'API keys' },
  { href: '/dashboard/billing', label: 'Billing' },
] as const;

/** Whether the stored auth data is a real sign-in (a billing-only token from /subscribe opens no dashboard). */
export function useSignedIn(): { signedIn: boolean; renewable: boolean; email: string; orgId: string | null } {
  const authData = useAuthStore((s) => s.authData);
  const claims = authData.authToken ? readTokenClaims(authData.authToken) : null;
  const signedIn = !!authData.authToken && claims?.scope !== 'billing';
  return { signedIn, renewable: signedIn && !!authData.refreshToken, email: authData.email ?? claims?.email ?? '', orgId: claims?.orgId ?? null };
}

/**
 * The dashboard's shape while the stored session is read (the server HTML, and until the browser knows who is signed
 * in): the navigation, the heading and a few rows as placeholders, so nothing jumps when the page arrives and no
 * signed-out screen flashes first.
 */
function ShellSkeleton() {
  return (
    <div className={styles.shell}>
      <div className={styles.nav} aria-hidden="true">
        <ul>
          {DASHBOARD_LINKS.map((l) => (
            <li key={l.href}>
              <span className={`${styles.skeleton} ${styles.skeletonLink}`} />
            </li>
          ))}
        </ul>
      </div>
      <div className={styles.content}>
        <p role="status" className="visually-hidden">
          Loading your dashboard…
        </p>
        <span aria-hidden="true" className={`${styles.skeleton} ${styles.skeletonTitle}`} />
        {[0, 1, 2].map((i) => (
          <span key={i} aria-hidden="true" className={`${styles.skeleton} ${styles.skeletonRow}`} />
        ))}
      </div>
    </div>
  );
}

export default function DashboardShell({ title, children }: { title: string; children: ReactNode }) {
  const { ready, accountSwitch } = useDashboardSession();
  const { signedIn, renewable } = useSignedIn();
  const { asPath } = useRouter();
  useEffect(() => (ready && renewable ? keepSessionFresh() : undefined), [ready, renewable]);

  if (accountSwitch) {
    return (
      <div className={auth.page}>
        <div className={auth.card} role="group" aria-labelledby="switch-account">
          <h1 id="switch-account" className={auth.heading}>
            Switch account?
          </h1>
          <p className={auth.lead}>
            You are signed in as {accountSwitch.from}. Continue as {accountSwitch.to}?
          </p>
          <div className={auth.secondaryRow}>
            <button type="button" className={auth.primary} onClick={accountSwitch.confirm}>
              Continue as {accountSwitch.to}
            </button>
            <button type="button" className={auth.link} onClick={accountSwitch.decline}>
              Stay signed in as {accountSwitch.from}
            </button>
          </div>
        </div>
      </div>
    );
  }
  if (!ready) return <ShellSkeleton />;
  if (!signedIn) {
    const here = asPath.split(/[?#]/)[0];
    return (
      <div className={auth.page}>
        <div className={auth.card}>
          <h1 className={auth.heading}>Your dashboard</h1>
          <p className={auth.lead}>Sign in to see the apps you follow and where their reviews go.</p>
          <Link href={`/login?redirect_to=${here}`} className={auth.primary}>
            Sign in
          </Link>
        </div>
      </div>
    );
  }
  const current = asPath.split(/[?#]/)[0];
  return (
    <div className={styles.shell}>
      <nav aria-label="Dashboard" className={styles.nav}>
        <ul>
          {DASHBOARD_LINKS.map((l) => (
            <li key={l.href}>
              <Link href={l.href} aria-current={current === l.href ? 'page' : undefined}>
                {l.label}
              </Link>
            </li>
          ))}
        </ul>
      </nav>
      <div className={styles.content}>
        <h1 className={styles.title}>{title}</h1>
        <InvitationBanner enabled={renewable} />
        {children}
      </div>
    </div>
  );
}
