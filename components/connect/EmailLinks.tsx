/**
 * The pages behind the links in review e-mails (digest offer, confirmation of a request, confirmation of a new e-mail
 * destination, unsubscribe). Both ask for a click before acting: mail scanners open links, and
 * opening a link must never unsubscribe someone or start mailing them. (Mail clients' one-click unsubscribe POSTs to
 * the API directly, from the List-Unsubscribe header.)
 */
import Link from 'next/link';
import { useRouter } from 'next/router';
import { useEffect, useState } from 'react';
import { unverifiedClaims } from '@/lib/tokenClaims';
import styles from './Connect.module.css';

const one = (v: string | string[] | undefined) => (Array.isArray(v) ? v[0] : v) ?? '';
const message = (err: unknown, fallback: string) => (err instanceof Error && err.message ? err.message : fallback);

/** What kind of link this is, read (not verified — the server does that) from the token's audience. */
function linkPurpose(token: string): 'digest' | 'weekly' | 'confirm' | 'destination' | null {
  const aud = unverifiedClaims(token)?.aud;
  return aud === 'digest' || aud === 'weekly' || aud === 'confirm' || aud === 'destination' ? aud : null;
}

type Phase = { kind: 'ready' } | { kind: 'working' } | { kind: 'done'; text: string } | { kind: 'failed'; text: string };

function Result({ phase }: { phase: Phase }) {
  return (
    <>
      <p role="status" className={styles.live}>
        {phase.kind === 'done' ? phase.text : null}
      </p>
      <p role="alert" className={styles.alert}>
        {phase.kind === 'failed' ? phase.text : null}
      </p>
    </>
  );
}

export function ConfirmEmailLink() {
  const router = useRouter();
  const token = one(router.query.token);
  const purpose = token ? linkPurpose(token) : null;
  const [phase, setPhase] = useState<Phase>({ kind: 'ready' });

  const confirm = async () => {
    setPhase({ kind: 'working' });
    try {
      const { confirmEmailLink } = await import('@/lib/api/emailLinks');
      const r = await confirmEmailLink(token);
      setPhase({
        kind: 'done',
        text:
          r.action === 'digest_on'
            ? `Your daily digest of ${r.app} is on. New reviews arrive at ${r.email} in one e-mail a day at most, only on days with new reviews.`
            : r.action === 'weekly_on'
              ? `Your weekly summary of ${r.app} is on. It arrives at ${r.email} every Monday, for the week before.`
              : r.action === 'destination_on'
              ? `Confirmed. New reviews of ${r.app} will arrive at ${r.email}, starting with a welcome e-mail and the latest reviews.`
              : `Thanks — the e-mail about ${r.app} is on its way to ${r.email}.`,
      });
    } catch (err) {
      setPhase({ kind: 'failed', text: message(err, 'This link could not be confirmed. Try again in a moment.') });
    }
  };

  const heading =
    purpose === 'digest' ? 'Turn on the daily digest' : purpose === 'weekly' ? 'Turn on the weekly summary' : purpose === 'destination' ? 'Confirm your address' : 'Confirm your request';
  return (
    <div className={styles.page}>
      <h1 className={styles.pageHeading}>{heading}</h1>
      {router.isReady && !token ? (
        <p role="alert" className={styles.alert}>
          This link is incomplete. Copy the whole link from the e-mail.
        </p>
      ) : phase.kind === 'done' ? null : (
        <>
          <p>
            {purpose === 'digest'
              ? 'Get one e-mail a day with the new reviews, only on days when there are some. Every e-mail has a one-click unsubscribe link.'
              : purpose === 'weekly'
                ? 'Get one e-mail every Monday with a summary of the week’s reviews: themes, what changed and representative reviews. Every e-mail has a one-click unsubscribe link.'
                : purpose === 'destination'
                ? 'Someone asked ARB to e-mail every new review of an app to this address. Confirm and the reviews start; otherwise nothing more is sent.'
                : 'Someone asked ARB to e-mail app reviews to this address. Confirm and we send them; otherwise nothing more is sent.'}
          </p>
          <div className={styles.actions}>
            <button type="button" className={styles.primary} onClick={() => void confirm()} disabled={!token || phase.kind === 'working'}>
              {phase.kind === 'working'
                ? 'Confirming…'
                : purpose === 'digest'
                  ? 'Turn on the daily digest'
                  : purpose === 'weekly'
                    ? 'Turn on the weekly summary'
                    : purpose === 'destination'
                      ? 'Yes, send me the reviews'
                      : 'Yes, send it'}
            </button>
          </div>
        </>
      )}
      <Result phase={phase} />
    </div>
  );
}

export function UnsubscribeEmailLink() {
  const router = useRouter();
  const token = one(router.query.token);
  const [who, setWho] = useState<{ email: string; unsubscribed: boolean } | null>(null);
  const [phase, setPhase] = useState<Phase>({ kind: 'ready' });

  useEffect(() => {
    if (!token) return;
    let cancelled = false;
    import('@/lib/api/emailLinks')
      .then(({ describeUnsubscribeLink }) => describeUnsubscribeLink(token))
      .then((r) => !cancelled && setWho(r))
      .catch((err: unknown) => !cancelled && setPhase({ kind: 'failed', text: message(err, 'This unsubscribe link could not be read.') }));
    return () => {
      cancelled = true;
    };
  }, [token]);

  const unsubscribe = async () => {
    setPhase({ kind: 'working' });
    try {
      const { unsubscribeWithLink } = await import('@/lib/api/emailLinks');
      const r = await unsubscribeWithLink(token);
      setPhase({ kind: 'done', text: `You are unsubscribed. ARB will not send review e-mails to ${r.email} any more.` });
    } catch (err) {
      setPhase({ kind: 'failed', text: message(err, 'Unsubscribing failed. Try again in a moment.') });
    }
  };

  return (
    <div className={styles.page}>
      <h1 className={styles.pageHeading}>Unsubscribe</h1>
      {router.isReady && !token ? (
        <p role="alert" className={styles.alert}>
          This link is incomplete. Copy the whole link from the e-mail.
        </p>
      ) : who?.unsubscribed && phase.kind !== 'done' ? (
        <p>{who.email} is unsubscribed: ARB sends it no review e-mails.</p>
      ) : who && phase.kind !== 'done' ? (
        <>
          <p>
            Stop all ARB review e-mails to <strong>{who.email}</strong> — recent reviews, summaries and daily digests?
          </p>
          <div className={styles.actions}>
            <button type="button" className={styles.primary} onClick={() => void unsubscribe()} disabled={phase.kind === 'working'}>
              {phase.kind === 'working' ? 'Unsubscribing…' : 'Unsubscribe'}
            </button>
          </div>
        </>
      ) : phase.kind === 'ready' ? (
        <p role="status">Reading the link…</p>
      ) : null}
      <Result phase={phase} />
      {phase.kind === 'done' ? (
        <p>
          Changed your mind? You can ask for reviews again any time on the <Link href="/get-reviews">Get reviews by e-mail</Link> page.
        </p>
      ) : null}
    </div>
  );
}
