/**
 * /dashboard/integrations — Zendesk: admins connect it (subdomain, an agent's e-mail and API token, checked by the
 * server with one call to Zendesk), see the webhook URL and the trigger to create in Zendesk step by step, save the
 * webhook's signing secret, and disconnect. Members see whether it is connected, and as whom. Roles are checked by the
 * server (server/zendesk/endpoints.ts); the page only hides what the caller's role cannot do.
 */
import { useId, useState, type FormEvent } from 'react';
import toast from '@/lib/hotToast';
import type { ZendeskStatus } from '@/lib/api/zendesk';
import { useOrganisation } from '@/lib/queries/team';
import { useConnectZendesk, useDisconnectZendesk, useSaveZendeskSecret, useZendesk } from '@/lib/queries/zendesk';
import { atLeast } from '@/shared/orgRoles';
import { ZENDESK_TAG } from '@/shared/zendesk';
import { ConfirmButton, dateTime, errorToast, Skeleton } from '../common';
import styles from '../Dashboard.module.css';

function ConnectForm() {
  const id = useId();
  const [subdomain, setSubdomain] = useState('');
  const [email, setEmail] = useState('');
  const [token, setToken] = useState('');
  const [error, setError] = useState<string | null>(null);
  const connect = useConnectZendesk();
  const submit = (e: FormEvent) => {
    e.preventDefault();
    setError(null);
    connect.mutate(
      { subdomain, email, api_token: token },
      {
        onSuccess: (s) => {
          setToken('');
          toast.success(`Zendesk connected as ${s.user_name ?? s.email ?? 'your agent'}`);
        },
        onError: (err) => setError(err.message || 'Zendesk could not be connected. Try again.'),
      },
    );
  };
  return (
    <form className={styles.section} onSubmit={submit} aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`} className={styles.sectionTitle}>
        Connect Zendesk
      </h2>
      <p className={styles.muted}>ARB checks these with one call to Zendesk, keeps the token encrypted and never shows it again.</p>
      <label htmlFor={`${id}-sub`}>Zendesk subdomain (acme for acme.zendesk.com)</label>
      <input id={`${id}-sub`} className={styles.input} value={subdomain} onChange={(e) => setSubdomain(e.target.value)} required autoComplete="off" />
      <label htmlFor={`${id}-email`}>Agent e-mail address</label>
      <input id={`${id}-email`} type="email" className={styles.input} value={email} onChange={(e) => setEmail(e.target.value)} required autoComplete="email" />
      <label htmlFor={`${id}-token`}>API token (Admin Center → Apps and integrations → Zendesk API)</label>
      <input id={`${id}-token`} type="password" className={styles.input} value={token} onChange={(e) => setToken(e.target.value)} required autoComplete="off" />
      {error && (
        <p role="alert">
          {error}
        </p>
      )}
      <div className={styles.row}>
        <button type="submit" className={styles.button} disabled={connect.isPending}>
          {connect.isPending ? 'Checking with Zendesk…' : 'Connect Zendesk'}
        </button>
      </div>
    </form>
  );
}

function SecretForm({ status }: { status: ZendeskStatus }) {
  const id = useId();
  const [secret, setSecret] = useState('');
  const [error, setError] = useState<string | null>(null);
  const save = useSaveZendeskSecret();
  const submit = (e: FormEvent) => {
    e.preventDefault();
    setError(null);
    save.mutate(secret, {
      onSuccess: () => {
        setSecret('');
        toast.success('Signing secret saved: ARB now takes the webhook’s events');
      },
      onError: (err) => setError(err.message || 'The secret could not be saved. Try again.'),
    });
  };
  return (
    <form onSubmit={submit}>
      <label htmlFor={`${id}-secret`}>Webhook signing secret {status.signing_secret_set ? '(saved; paste a new one to replace it)' : ''}</label>
      <input id={`${id}-secret`} className={styles.input} value={secret} onChange={(e) => setSecret(e.target.value)} required autoComplete="off" />
      {error && (
        <p role="alert">
          {error}
        </p>
      )}
      <div className={styles.row}>
        <button type="submit" className={styles.button} disabled={save.isPending}>
          Save signing secret
        </button>
      </div>
    </form>
  );
}

function SetupSteps({ status }: { status: ZendeskStatus }) {
  return (
    <section className={styles.section} aria-labelledby="zendesk-setup">
      <h2 id="zendesk-setup" className={styles.sectionTitle}>
        Reply to reviews from Zendesk
      </h2>
      <ol>
        <li>
          In Zendesk, open Admin Center → Apps and integrations → Webhooks → Create webhook → Trigger or automation. Name it “ARB”, paste this endpoint URL, request method POST, format JSON,
          authentication none:
          <pre>
            <code aria-label="Webhook URL">{status.webhook_url}</code>
          </pre>
        </li>
        <li>Create the webhook, open it, and under Signing secret choose Reveal secret. Paste it below and save.</li>
        <li>
          Admin Center → Objects and rules → Triggers → Create trigger, named “{status.trigger.name}”. Under <strong>Meet all of the following conditions</strong> add: Ticket · Is · Updated, and
          Tags · Contains at least one of · {ZENDESK_TAG}. Under <strong>Meet any of the following conditions</strong> add: Comment · Is · Public (together with Current user · Is · (agent)), and
          Ticket status · Changed to · Solved.
        </li>
        <li>
          Under Actions add Notify by · Active webhook · ARB, and paste this JSON body:
          <pre>
            <code aria-label="Trigger JSON body">{status.trigger.body}</code>
          </pre>
        </li>
        <li>Save the trigger. A public reply by an agent on an ARB ticket is then sent as the review’s reply; solving the ticket marks the review done.</li>
      </ol>
      <SecretForm status={status} />
      <p className={styles.muted}>{status.last_event_at ? `Last event from Zendesk: ${dateTime(status.last_event_at)}` : 'No event from Zendesk yet.'}</p>
    </section>
  );
}

export default function ZendeskIntegration() {
  const org = useOrganisation();
  const status = useZendesk();
  const disconnect = useDisconnectZendesk();
  if (org.isPending || status.isPending) return <Skeleton rows={3} label="Loading integrations" />;
  if (org.isError) return <p role="alert">{org.error.message}</p>;
  if (status.isError) return <p role="alert">{status.error.message}</p>;
  const admin = atLeast(org.data.role, 'admin');
  const s = status.data;
  return (
    <>
      <h1 className={styles.title}>Integrations</h1>
      <section className={styles.section} aria-labelledby="zendesk-status">
        <h2 id="zendesk-status" className={styles.sectionTitle}>
          Zendesk
        </h2>
        <p role="status">
          {s.connected ? `Connected to ${s.subdomain}.zendesk.com as ${s.user_name ? `${s.user_name} (${s.email})` : s.email}${s.connected_at ? ` since ${dateTime(s.connected_at)}` : ''}.` : 'Not connected.'}
          {s.connected && !s.signing_secret_set ? ' Replies from tickets wait for the webhook’s signing secret.' : ''}
        </p>
        {!admin && <p className={styles.muted}>An admin of your organisation connects and sets up Zendesk.</p>}
        {admin && s.connected && (
          <ConfirmButton
            question="Disconnect Zendesk? ARB forgets the token and the secret; links to tickets already created stay."
            pending={disconnect.isPending}
            onConfirm={() => disconnect.mutate(undefined, { onSuccess: () => toast.success('Zendesk disconnected'), onError: errorToast })}
          >
            Disconnect Zendesk
          </ConfirmButton>
        )}
      </section>
      {admin && !s.connected && <ConnectForm />}
      {admin && s.connected && <SetupSteps status={s} />}
    </>
  );
}
