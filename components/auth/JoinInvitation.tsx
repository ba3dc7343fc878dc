/**
 * /join#<token>: the link of an invitation e-mail. The token is in the fragment (never sent to a server); it is taken
 * out of the address bar in a layout effect, before the app shell records the page view, then exchanged by POST
 * v1/auth/invitation, which signs the invited address in and joins the organisation. The session is stored as any
 * sign-in's, and the new member lands on the Team page.
 */
import Link from 'next/link';
import { useRouter } from 'next/router';
import { useEffect, useRef, useState } from 'react';
import { useEarlyEffect } from '@/lib/useEarlyEffect';
import toast from '@/lib/hotToast';
import { acceptInvitation } from '@/lib/api/org';
import { readAttribution } from '@/lib/referral';
import { storeSession } from '@/stores/auth';
import styles from './AuthForms.module.css';

/** The fragment's token, removed from the address bar (and so from history and analytics). */
function takeTokenFromFragment(): string | null {
  const token = window.location.hash.replace(/^#/, '').trim();
  if (!token) return null;
  window.history.replaceState(window.history.state, '', window.location.pathname + window.location.search);
  return /^[\w-]{20,200}$/.test(token) ? token : null;
}

/** Sign in and join with the link's token; the message to show when that cannot happen. */
async function join(token: string | null): Promise<string | null> {
  if (!token) return 'This invitation link is incomplete. Open it again from the e-mail, or sign in with the invited address.';
  try {
    const user = await acceptInvitation(token, readAttribution());
    storeSession(user);
    return null;
  } catch (e) {
    return (e as Error).message;
  }
}

export default function JoinInvitation() {
  const router = useRouter();
  const token = useRef<string | null | undefined>(undefined);
  const started = useRef(false);
  const [error, setError] = useState('');
  useEarlyEffect(() => {
    if (token.current === undefined) token.current = takeTokenFromFragment();
  }, []);
  useEffect(() => {
    // Once: the token works once, and development's double effects must not spend it twice.
    if (started.current) return;
    started.current = true;
    void join(token.current ?? null).then((message) => {
      if (message) return setError(message);
      toast.success('Welcome to the team');
      void router.replace('/dashboard/team');
    });
  }, [router]);

  return (
    <div className={styles.page}>
      <div className={styles.card}>
        <h1 className={styles.heading}>Join your team on ARB</h1>
        {error ? (
          <>
            <p role="alert" className={styles.error}>
              {error}
            </p>
            <p className={styles.lead}>
              <Link href="/login?redirect_to=/dashboard/team">Sign in</Link> with the invited address: an invitation that is still open joins you then.
            </p>
          </>
        ) : (
          <p role="status" className={styles.lead}>
            Signing you in…
          </p>
        )}
      </div>
    </div>
  );
}
