/**
 * What happened after connecting, read from GET v1/public/destination/{id} every few seconds: "Connected to #channel"
 * (or the platform's equivalent), whether the welcome has arrived, the last delivery, and any problem in plain words —
 * plus the invitation to create an account to manage the connection. A new e-mail destination first waits for its
 * mailbox: "Check … to confirm", until the link in the confirmation e-mail is clicked (the card then turns connected).
 */
import Link from 'next/link';
import { useEffect, useRef, useState } from 'react';
import { APP_STORE_NAMES, isAppStore, isPlatform, type Platform } from '@/shared/appStores';
import { useDestinationQuery } from '@/lib/queries/connect';
import { selectIsSignedIn, useAuthStore } from '@/stores/auth';
import styles from './Connect.module.css';
import { PLATFORM_GUIDES } from './platformGuides';
import { connectedHeading, plainProblem, timeAgo } from './statusWords';

const SIGNUP_HREF = `/login?redirect_to=${encodeURIComponent('/dashboard')}`;

const WELCOME_WORDS = {
  waiting_for_first_poll: 'Reading the latest reviews from the store…',
  queued: 'On its way…',
  delivered: 'Delivered',
} as const;

/** "Active" only once a message got through; before that, on its way or not delivered. */
function statusWords(status: string, firstMessage: string | undefined, firstFailed: boolean): string {
  if (status === 'paused') return 'Paused';
  if (status !== 'active') return 'Stopped';
  if (firstFailed) return 'Not delivering: the first message could not be delivered';
  return firstMessage === 'delivered' ? 'Active' : 'Connected, waiting for the first message';
}

/** Re-render every few seconds so "12 seconds ago" stays true between polls. */
function useNow(everyMs: number): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const t = setInterval(() => setNow(Date.now()), everyMs);
    return () => clearInterval(t);
  }, [everyMs]);
  return now;
}

type Props = {
  destinationId: string;
  onConnectAnother?: () => void;
  /** The address as the visitor typed it (the server only shows it masked). */
  address?: string;
  /** The connect answer's words about the confirmation e-mail (e.g. "already sent in the last 15 minutes"). */
  confirmationMessage?: string | null;
};

function PendingConfirmation({ address, sentAt, message, now }: { address: string; sentAt: string | null; message?: string | null; now: number }) {
  return (
    <>
      <p className={styles.stepLead}>
        We sent one e-mail to <strong>{address}</strong> with a confirmation link. Reviews start once it is clicked; until then
        nothing else is sent to this address.
      </p>
      {message ? <p className={styles.fieldHint}>{message}</p> : null}
      <dl className={styles.statusList}>
        <dt>Status</dt>
        <dd>Waiting for confirmation</dd>
        <dt>Confirmation e-mail</dt>
        <dd>{sentAt ? `Sent ${timeAgo(sentAt, now)}` : 'Not sent yet'}</dd>
      </dl>
    </>
  );
}

export default function ConnectionStatus({ destinationId, onConnectAnother, address, confirmationMessage }: Props) {
  const { data, error, isPending } = useDestinationQuery(destinationId);
  const signedIn = useAuthStore(selectIsSignedIn);
  const headingRef = useRef<HTMLHeadingElement>(null);
  const now = useNow(5000);
  const hasData = Boolean(data);

  // Move focus to the result once it is there, so keyboard and screen-reader users land on it.
  useEffect(() => {
    if (hasData) headingRef.current?.focus();
  }, [hasData]);

  if (isPending) {
    return (
      <p role="status" className={styles.fieldHint}>
        Checking the connection…
      </p>
    );
  }
  if (!data) {
    return (
      <p role="alert" className={styles.alert}>
        {error instanceof Error ? error.message : 'The connection could not be read.'}
      </p>
    );
  }

  const platform: Platform = isPlatform(data.platform) ? data.platform : 'slack';
  // Until a message got through, a failed attempt is said as "the first message could not be delivered", with why and
  // what to check (shared/deliveryErrors.ts); the status says "Active" only once one did.
  const firstFailed = data.first_message === 'failed' && Boolean(data.first_delivery_problem);
  const problem = firstFailed && data.status !== 'disabled' ? data.first_delivery_problem : plainProblem(platform, data.status === 'disabled' ? (data.status_reason ?? data.last_error) : data.last_error);
  const app = data.app;
  const pending = data.status === 'pending_confirmation';
  return (
    <section className={styles.status} aria-labelledby={`${destinationId}-heading`}>
      <h3 id={`${destinationId}-heading`} ref={headingRef} tabIndex={-1} className={styles.stepHeading}>
        {pending ? `Check ${address || data.target} to confirm` : connectedHeading(platform, data.label, data.target)}
      </h3>
      {pending ? (
        <PendingConfirmation address={address || data.target} sentAt={data.confirmation_sent_at ?? null} message={confirmationMessage} now={now} />
      ) : (
        <>
          {app ? (
            <p className={styles.stepLead}>
              New reviews of <strong>{app.title ?? app.app_id}</strong>
              {isAppStore(app.app_store) ? ` on ${APP_STORE_NAMES[app.app_store]}` : ''} will appear there
              {platform === 'email' ? ' as e-mails' : ` in ${PLATFORM_GUIDES[platform].name}`}.
            </p>
          ) : null}
          <dl className={styles.statusList}>
            <dt>Status</dt>
            <dd className={data.status === 'active' && !firstFailed ? styles.ok : styles.bad}>{statusWords(data.status, data.first_message, firstFailed)}</dd>
            <dt>Welcome message</dt>
            <dd>{WELCOME_WORDS[data.welcome] ?? data.welcome}</dd>
            <dt>Last delivery</dt>
            <dd>{data.last_delivery_at ? timeAgo(data.last_delivery_at, now) : 'Not yet'}</dd>
            <dt>Messages delivered</dt>
            <dd>{data.delivered}</dd>
            {data.parked ? (
              <>
                <dt>Set aside</dt>
                <dd>{data.parked === 1 ? '1 message' : `${data.parked} messages`}</dd>
              </>
            ) : null}
          </dl>
        </>
      )}
      {data.warning ? <p className={styles.fieldWarning}>{data.warning}</p> : null}
      {data.source_problem ? <p className={styles.fieldWarning}>{data.source_problem}</p> : null}
      {data.parked && data.parked_reason ? <p className={styles.fieldWarning}>{data.parked_reason}</p> : null}
      <div role="alert" className={styles.alert}>
        {problem}
      </div>
      {signedIn ? null : (
        <div className={styles.cta}>
          <p>Create your free ARB account to manage this connection: filters, more apps, replies and summaries.</p>
          <Link href={SIGNUP_HREF} className={styles.ctaLink}>
            Create free account
          </Link>
        </div>
      )}
      {onConnectAnother ? (
        <div className={styles.actions}>
          <button type="button" className={styles.secondary} onClick={onConnectAnother}>
            Connect another channel
          </button>
        </div>
      ) : null}
    </section>
  );
}
