/**
 * A Webhook destination's signing secret, shown once (right after it was made or rotated), with what the endpoint
 * receives and how to check a request: the Standard Webhooks headers and a verification example. The secret is not
 * kept anywhere in the browser; closing the panel forgets it.
 */
import { useId, useState } from 'react';
import styles from '../Dashboard.module.css';
import own from './Destinations.module.css';

/**
 * What a review looks like at the endpoint: the public API's review shape (times in unix seconds) in the Standard
 * Webhooks envelope, payload version 2 (docs/API.md, "Signed webhooks").
 */
export const SAMPLE_PAYLOAD = JSON.stringify(
  {
    type: 'review.created',
    version: 2,
    timestamp: '2026-11-24T09:12:44.000Z',
    data: {
      id: '48213',
      app_key: 'apple_app_store__1488223190',
      app_id: '1488223190',
      app_store: 'apple_app_store',
      title: 'Lumen Notes',
      author_display_name: 'kayak',
      content_title: 'Sync broke after the update',
      content_body: 'Notes no longer sync between iPad and iPhone.',
      content_rating: 2,
      content_updated_at: 1795511564,
      written_at: 1795511564,
      reply_text: null,
      replied_at: null,
      reply_state: 'none',
      country: 'us',
      language: 'en',
      store_permalink: 'https://apps.apple.com/app/id1488223190',
      sentiment: 'negative',
      version: '5.12.0',
      edited: false,
      previous_rating: null,
    },
  },
  null,
  2,
);

const VERIFY_EXAMPLE = `import { Webhook } from 'standardwebhooks';

const wh = new Webhook(process.env.ARB_WEBHOOK_SECRET); // whsec_…
// rawBody: the request body exactly as received, before any JSON parsing
const event = wh.verify(rawBody, {
  'webhook-id': req.headers['webhook-id'],
  'webhook-timestamp': req.headers['webhook-timestamp'],
  'webhook-signature': req.headers['webhook-signature'],
}); // throws when the signature or the time is wrong`;

export default function WebhookSecret({ secret, onDone }: { secret: string; onDone: () => void }) {
  const id = useId();
  const [copied, setCopied] = useState(false);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(secret);
      setCopied(true);
    } catch {
      setCopied(false);
    }
  };
  return (
    <section className={own.secret} aria-labelledby={`${id}-title`}>
      <h3 id={`${id}-title`}>Signing secret</h3>
      <p>
        Copy it now: it is shown only this once. Your endpoint uses it to check that each request comes from ARB. If it
        is lost, rotate it from the destination’s card.
      </p>
      <div className={styles.row}>
        <label htmlFor={`${id}-value`} className={own.visuallyHidden}>
          Signing secret
        </label>
        <input id={`${id}-value`} className={own.secretValue} readOnly value={secret} onFocus={(e) => e.currentTarget.select()} />
        <button type="button" className={styles.quiet} onClick={() => void copy()}>
          {copied ? 'Copied' : 'Copy'}
        </button>
      </div>
      <h4>What your endpoint receives</h4>
      <p>
        A POST with a JSON body and three headers: <code>webhook-id</code> (the same on every retry of a message: use it
        to drop repeats), <code>webhook-timestamp</code> (unix seconds) and <code>webhook-signature</code> (
        <code>v1,</code> + base64 of the HMAC-SHA256 of <code>id.timestamp.body</code>, keyed with the secret’s bytes
        after <code>whsec_</code>). Answer with any 2xx within 10 seconds; other answers are retried with backoff.
      </p>
      <p>
        When you rotate the secret, the old one keeps signing for 24 hours next to the new one (two signatures separated
        by a space), so your endpoint accepts every request while you update it.
      </p>
      <pre className={own.code} aria-label="Sample payload">
        {SAMPLE_PAYLOAD}
      </pre>
      <h4>How to verify</h4>
      <pre className={own.code} aria-label="Verification example">
        {VERIFY_EXAMPLE}
      </pre>
      <div className={styles.row}>
        <button type="button" className={styles.button} onClick={onDone}>
          I saved the secret
        </button>
      </div>
    </section>
  );
}
