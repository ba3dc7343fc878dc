/**
 * /join#<token>: the link of an invitation e-mail. The token is in the fragment (never sent to a server); it is taken
 * out of the address bar in a layout effect, before the app shell records the page view, and kept in memory only.
 * Nothing changes until the person confirms: the page first shows who invites them where and as what, and what
 * happens to their own organisation (POST v1/invitations/preview, which changes nothing). Signed in as someone else,
 * it asks whether to continue as the invited address (a link someone sent must not silently swap the account this
 * browser is signed in with). Confirming signs the invited address in and joins (POST v1/auth/invitation); the
 * session is stored as any sign-in's, and the new member lands where any sign-in does: the sanitized `redirect_to`,
 * else /dashboard (`afterSignIn`).
 */
import Link from 'next/link';
import { useRouter } from 'next/router';
import { useEffect, useRef, useState } from 'react';
import { useEarlyEffect } from '@/lib/useEarlyEffect';
import toast from '@/lib/hotToast';
import { acceptInvitationLink, previewInvitation, type InvitationPreview } from '@/lib/api/invitations';
import { afterSignIn } from '@/lib/redirect';
import { readAttribution } from '@/lib/referral';
import { storeSession, useAuthHydrated, useAuthStore } from '@/stores/auth';
import styles from './AuthForms.module.css';

const INCOMPLETE = 'This invitation link is incomplete. Open it again from the e-mail, or sign in with the invited address.';

/** The fragment's token, removed from the address bar (and so from history and analytics). */
function takeTokenFromFragment(): string | null {
  const token = window.location.hash.replace(/^#/, '').trim();
  if (!token) return null;
  window.history.replaceState(window.history.state, '', window.location.pathname + window.location.search);
  return /^[\w-]{20,200}$/.test(token) ? token : null;
}

function Offer({ invitation }: { invitation: InvitationPreview }) {
  return (
    <>
      <p className={styles.lead}>
        {invitation.inviter ?? 'Someone'} invites you to <strong>{invitation.organisation}</strong> as {invitation.role}.
      </p>
      <dl className={styles.facts}>
        <dt>Organisation</dt>
        <dd>{invitation.organisation}</dd>
        <dt>Role</dt>
        <dd>{invitation.role}</dd>
        <dt>Invited address</dt>
        <dd>{invitation.email}</dd>
      </dl>
      {invitation.outcome && invitation.outcome.kind !== 'blocked' ? <p className={styles.lead}>{invitation.outcome.text}</p> : null}
    </>
  );
}

export default function JoinInvitation() {
  const router = useRouter();
  const hydrated = useAuthHydrated();
  const signedInAs = useAuthStore((s) => s.authData.email ?? '');
  const token = useRef<string | null | undefined>(undefined);
  const started = useRef(false);
  const [invitation, setInvitation] = useState<InvitationPreview | null>(null);
  const [error, setError] = useState('');
  const [busy, setBusy] = useState(false);
  useEarlyEffect(() => {
    if (token.current === undefined) token.current = takeTokenFromFragment();
  }, []);
  useEffect(() => {
    // Once (development's double effects included): the preview changes nothing, but one request is enough.
    if (started.current) return;
    started.current = true;
    if (!token.current) return setError(INCOMPLETE);
    previewInvitation(token.current).then(setInvitation, (e: Error) => setError(e.message));
  }, []);

  async function join() {
    if (!token.current || !invitation) return;
    setBusy(true);
    setError('');
    try {
      const user = await acceptInvitationLink(token.current, readAttribution(), invitation.outcome?.kind === 'deletes_holdings');
      storeSession(user);
      toast.success('Welcome to the team');
      void router.replace(afterSignIn(router.query.redirect_to));
    } catch (e) {
      setError((e as Error).message);
      setBusy(false);
    }
  }

  const otherAccount = hydrated && signedInAs && invitation && signedInAs !== invitation.email;
  const blocked = invitation?.outcome?.kind === 'blocked' ? invitation.outcome.text : '';
  const joinLabel = invitation?.outcome?.kind === 'deletes_holdings' ? `Delete my organisation and join ${invitation.organisation}` : `Join ${invitation?.organisation ?? ''}`;

  return (
    <div className={styles.page}>
      <div className={styles.card}>
        <h1 className={styles.heading}>Join your team on ARB</h1>
        {invitation ? <Offer invitation={invitation} /> : null}
        {invitation && !hydrated ? (
          <p role="status" className={styles.lead}>
            Loading…
          </p>
        ) : null}
        {invitation && hydrated && blocked ? (
          <p role="alert" className={styles.error}>
            {blocked}
          </p>
        ) : null}
        {invitation && hydrated && !blocked && otherAccount ? (
          <div role="group" aria-label="Switch account">
            <p className={styles.lead}>
              <strong>
                You are signed in as {signedInAs}. Continue as {invitation.email} and join {invitation.organisation}?
              </strong>
            </p>
            <div className={styles.secondaryRow}>
              <button type="button" className={styles.primary} disabled={busy} aria-busy={busy} onClick={() => void join()}>
                {busy ? 'Joining…' : `Continue as ${invitation.email} and join`}
              </button>
              <Link href="/dashboard" className={styles.link}>
                Stay signed in as {signedInAs}
              </Link>
            </div>
          </div>
        ) : null}
        {invitation && hydrated && !blocked && !otherAccount ? (
          <button type="button" className={styles.primary} disabled={busy} aria-busy={busy} onClick={() => void join()}>
            {busy ? 'Joining…' : joinLabel}
          </button>
        ) : null}
        {!invitation && !error ? (
          <p role="status" className={styles.lead}>
            Opening your invitation…
          </p>
        ) : null}
        {error ? (
          <>
            <p role="alert" className={styles.error}>
              {error}
            </p>
            {invitation ? null : (
              <p className={styles.lead}>
                <Link href="/login?redirect_to=/dashboard/team">Sign in</Link> with the invited address: the dashboard shows the invitations that are still open.
              </p>
            )}
          </>
        ) : null}
      </div>
    </div>
  );
}
