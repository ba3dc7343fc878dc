/**
 * /slack/link#<token>: the one-time link a Slack user gets when they click Reply on a review message before their
 * Slack account is linked to ARB (server/slack/links.ts). The token is in the fragment (never sent to a server); it is
 * taken out of the address bar in a layout effect and kept in this tab's sessionStorage, so it survives a detour
 * through the sign-in page. Signed in, the person confirms with a button (POST v1/slack/link): nothing is linked by
 * merely opening the page. The server decides whether the signed-in account is a member of the channel's organisation.
 */
import Link from 'next/link';
import { useState } from 'react';
import { useLinkSlackAccount } from '@/lib/queries/slack';
import { unverifiedClaims } from '@/lib/tokenClaims';
import { useEarlyEffect } from '@/lib/useEarlyEffect';
import { selectIsSignedIn, useAuthHydrated, useAuthStore } from '@/stores/auth';
import styles from '@/components/auth/AuthForms.module.css';

const STORAGE_KEY = 'arb-slack-link';
const TOKEN_SHAPE = /^[\w-]+\.[\w-]+\.[\w-]+$/;

/** The link's token: from the fragment (then removed from the address bar), else from before a sign-in. */
function takeToken(): string | null {
  const fromHash = window.location.hash.replace(/^#/, '').trim();
  if (fromHash) {
    window.history.replaceState(window.history.state, '', window.location.pathname + window.location.search);
    if (TOKEN_SHAPE.test(fromHash)) window.sessionStorage.setItem(STORAGE_KEY, fromHash);
    return TOKEN_SHAPE.test(fromHash) ? fromHash : null;
  }
  return window.sessionStorage.getItem(STORAGE_KEY);
}

/** The Slack name the link was made for, for display only (the server checks the token). */
function slackNameOf(token: string): string | null {
  const name = unverifiedClaims(token)?.un;
  return typeof name === 'string' && name ? `@${name}` : null;
}

export default function LinkSlackAccount() {
  const [token, setToken] = useState<string | null | undefined>(undefined);
  const hydrated = useAuthHydrated();
  const signedIn = useAuthStore(selectIsSignedIn);
  const email = useAuthStore((s) => s.authData.email);
  const link = useLinkSlackAccount();
  useEarlyEffect(() => setToken(takeToken()), []);

  const onLink = () =>
    token &&
    link.mutate(token, {
      onSuccess: () => window.sessionStorage.removeItem(STORAGE_KEY),
    });

  let body;
  if (token === undefined || !hydrated) {
    body = <p className={styles.lead}>Loading…</p>;
  } else if (!token) {
    body = (
      <p role="alert" className={styles.error}>
        This link is incomplete. Click Reply on the review message in Slack again for a new one.
      </p>
    );
  } else if (link.isSuccess) {
    body = (
      <p role="status" className={styles.lead}>
        Your Slack account {link.data.slack_user} is linked. Go back to Slack and click Reply again.
      </p>
    );
  } else if (!signedIn) {
    body = (
      <>
        <p className={styles.lead}>Sign in to ARB first, with the account you use in your team&apos;s organisation. You come back here after.</p>
        <Link href="/login?redirect_to=/slack/link" className={styles.primary}>
          Sign in
        </Link>
      </>
    );
  } else {
    const name = slackNameOf(token);
    body = (
      <>
        <p className={styles.lead}>
          Replies you send from Slack{name ? ` as ${name}` : ''} will be sent as <strong>{email}</strong>, for your organisation. Only link your own Slack account.
        </p>
        {link.isError ? (
          <p role="alert" className={styles.error}>
            {link.error.message}
          </p>
        ) : null}
        <button type="button" className={styles.primary} onClick={onLink} disabled={link.isPending}>
          {link.isPending ? 'Linking…' : 'Link my Slack account'}
        </button>
      </>
    );
  }

  return (
    <div className={styles.card}>
      <h1 className={styles.heading}>Link your Slack account</h1>
      {body}
    </div>
  );
}
