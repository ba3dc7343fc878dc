/**
 * The signed-in user's home at /dashboard: who is signed in, where to go next, and "Sign out everywhere", which ends
 * every session of the account (other browsers and devices too). The frame (session hand-off, sign-in prompt,
 * navigation) is DashboardShell's.
 */
import Link from 'next/link';
import DashboardShell, { useSignedIn } from '@/components/dashboard/DashboardShell';
import { useSignOutEverywhere } from '@/lib/queries/session';
import styles from './AuthForms.module.css';

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

function Overview() {
  const { email, orgId, renewable } = useSignedIn();
  return (
    <div>
      <dl className={styles.facts}>
        <dt>Signed in as</dt>
        <dd>{email}</dd>
        {orgId ? (
          <>
            <dt>Organisation</dt>
            <dd>
              <code>{orgId}</code>
            </dd>
          </>
        ) : null}
      </dl>
      <p className={styles.lead}>
        <Link href="/dashboard/team">Your team</Link> · <Link href="/">Add another app</Link> · <Link href="/pricing">Plans and pricing</Link> ·{' '}
        <Link href="/help">Help</Link>
      </p>
      {renewable ? <SignOutEverywhere /> : null}
    </div>
  );
}

export default function DashboardHome() {
  return (
    <DashboardShell title="Your dashboard">
      <Overview />
    </DashboardShell>
  );
}
