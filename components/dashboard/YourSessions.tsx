/**
 * "Your sessions" on /dashboard/team: who is signed in, and "Sign out everywhere", which ends every session of the
 * account (this browser, other browsers and devices). Shown only to a session that can be renewed (a billing-only
 * sign-in has nothing to end). Was on the old /dashboard home before it became the overview.
 */
import { useSignOutEverywhere } from '@/lib/queries/session';
import { useSignedIn } from './DashboardShell';
import styles from './Dashboard.module.css';

export default function YourSessions() {
  const { email, renewable } = useSignedIn();
  const signOut = useSignOutEverywhere();
  if (!renewable) return null;
  const busy = signOut.isPending;
  const error = signOut.error ? signOut.error.message || 'We could not sign you out everywhere. Try again.' : '';
  return (
    <section className={styles.section} aria-labelledby="sessions-heading">
      <h2 id="sessions-heading" className={styles.sectionTitle}>
        Your sessions
      </h2>
      <p className={styles.muted}>Signed in as {email}. Signing out everywhere ends every session of your account: this browser and every other device.</p>
      <button type="button" className={styles.quiet} disabled={busy} aria-busy={busy} onClick={() => signOut.mutate()}>
        {busy ? 'Signing out everywhere…' : 'Sign out everywhere'}
      </button>
      {error ? (
        <p role="alert" className={styles.muted}>
          {error}
        </p>
      ) : null}
    </section>
  );
}
