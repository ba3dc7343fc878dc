/**
 * The signed-in user's home at /dashboard: who is signed in, where to go next, and "Sign out everywhere", which ends
 * every session of the account (other browsers and devices too). The frame (session hand-off, sign-in prompt,
 * navigation) is DashboardShell's.
 */
import Link from 'next/link';
import { useState } from 'react';
import { signOutEverywhere } from '@/lib/api/auth';
import { freshAccessToken } from '@/lib/session';
import { useAuthStore } from '@/stores/auth';
import DashboardShell, { useSignedIn } from '@/components/dashboard/DashboardShell';
import styles from './AuthForms.module.css';

function SignOutEverywhere() {
  const [state, setState] = useState<'idle' | 'busy'>('idle');
  const [error, setError] = useState('');
  const run = async () => {
    setState('busy');
    setError('');
    try {
      const token = await freshAccessToken();
      if (!token) throw new Error('Your session has ended. Sign in again.');
      await signOutEverywhere(token);
      useAuthStore.getState().logout();
    } catch (e) {
      setError((e as Error).message || 'We could not sign you out everywhere. Try again.');
      setState('idle');
    }
  };
  return (
    <div className={styles.lead}>
      <button type="button" className={styles.primary} disabled={state === 'busy'} aria-busy={state === 'busy'} onClick={() => void run()}>
        {state === 'busy' ? 'Signing out everywhere…' : 'Sign out everywhere'}
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
