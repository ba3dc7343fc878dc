/**
 * Why a message could not be delivered, in words a customer can act on. The engine records what happened as it saw it
 * (server/destinations/send.ts and deliver.ts: "The webhook could not be reached (ECONNREFUSED).", "Slack refused the
 * webhook: … (HTTP 404, no_service) …"); a status shows this instead: what happened, without the network's codes, and
 * what to check. Pure, for the server's statuses and the browser alike; shared/ imports from neither side.
 */

export type DescribedError = {
  /** What happened, as the end of "…could not be delivered: <reason>" (lower case, no final full stop). */
  reason: string;
  /** What to check, as the end of "— check <check>" (lower case, no final full stop). */
  check: string;
};

const CHECK_WEBHOOK = 'that the webhook URL is right and the channel still exists';
const CHECK_SERVER = 'that the webhook URL is right and that its server is up and reachable from the internet';
const CHECK_ADDRESS = 'that the e-mail address is right and that its mailbox accepts mail';

type Rule = { test: RegExp; reason: string; check?: string };

/** In order: the first that matches the recorded error wins. Network codes first, then what an HTTP answer said. */
const RULES: Rule[] = [
  { test: /ECONNREFUSED/, reason: 'the server refused the connection', check: CHECK_SERVER },
  { test: /ENOTFOUND/, reason: 'the host name does not exist', check: 'that the webhook URL is spelt right (its host name could not be found)' },
  { test: /EAI_AGAIN/, reason: 'the host name could not be looked up just now', check: CHECK_SERVER },
  { test: /ECONNRESET|EPIPE|UND_ERR_SOCKET|socket hang up|other side closed/i, reason: 'the server closed the connection before answering', check: CHECK_SERVER },
  { test: /EHOSTUNREACH|ENETUNREACH|EHOSTDOWN|ENETDOWN/, reason: 'the server cannot be reached over the network', check: CHECK_SERVER },
  { test: /ETIMEDOUT|did not answer within|timed? ?out/i, reason: 'the server did not answer in time', check: CHECK_SERVER },
  {
    test: /CERT_|_CERT|ERR_TLS|EPROTO|SSL|certificate|self[- ]signed/i,
    reason: 'its secure connection could not be trusted (a TLS certificate problem)',
    check: 'that the webhook URL starts with https:// and that its server has a valid certificate',
  },
  { test: /private or internal network/, reason: 'its address leads to a private or internal network, where ARB does not post', check: 'that the webhook URL is a public address' },
  { test: /redirect/i, reason: 'the webhook answered with a redirect, which ARB does not follow', check: 'that the webhook URL is the final address (copy it again from the platform)' },
  { test: /unsubscribed/i, reason: 'the recipient unsubscribed', check: 'with the recipient: only they can sign up again' },
  { test: /HTTP 404\b/, reason: 'the webhook was not found (it may have been deleted)', check: CHECK_WEBHOOK },
  { test: /HTTP 410\b/, reason: 'the webhook no longer exists (its channel was archived or removed)', check: CHECK_WEBHOOK },
  { test: /HTTP 40[13]\b/, reason: 'the platform refused the webhook (it may have been revoked, or posting to the channel restricted)', check: CHECK_WEBHOOK },
  { test: /HTTP 429\b|asked to slow down/, reason: 'the platform asked ARB to slow down', check: 'nothing for now: ARB waits as asked and tries again' },
  { test: /HTTP 5\d\d\b|temporary problem/, reason: 'the platform had a problem of its own', check: 'the platform’s status page: ARB keeps trying' },
  { test: /did not accept this message|HTTP 4\d\d\b/, reason: 'the platform did not accept the message', check: CHECK_WEBHOOK },
  { test: /could not be reached/, reason: 'the webhook could not be reached', check: CHECK_SERVER },
];

/** The recorded error in words, with what to check; `platform` 'email' checks the address instead of a webhook. */
export function describeDeliveryError(error: string, platform?: string): DescribedError {
  const rule = RULES.find((r) => r.test.test(error));
  const email = platform === 'email';
  if (rule) return { reason: rule.reason, check: email && rule.check !== undefined && rule.check.includes('webhook') ? CHECK_ADDRESS : (rule.check ?? CHECK_WEBHOOK) };
  // Already in words (a mail server's refusal, a platform's own sentence): said as it was recorded, without its full stop.
  const words = error.trim().replace(/\.$/, '');
  return { reason: words.charAt(0).toLowerCase() + words.slice(1), check: email ? CHECK_ADDRESS : CHECK_WEBHOOK };
}

/**
 * What a destination's status says while no message has got through yet and the last attempt failed: "Connected, but
 * the first message could not be delivered: <reason> — check <what>."
 */
export function firstDeliveryProblem(error: string, platform?: string): string {
  const { reason, check } = describeDeliveryError(error, platform);
  return `Connected, but the first message could not be delivered: ${reason} — check ${check}.`;
}

/**
 * Where a destination's messages stand: 'delivered' once a message got through (only then is it "Active"), 'failed'
 * while none has and the last attempt failed, 'not_yet' before any attempt.
 */
export type FirstMessage = 'not_yet' | 'delivered' | 'failed';

export function firstMessageState(d: { last_delivery_at: string | Date | null; current_error: string | null }): FirstMessage {
  if (d.last_delivery_at) return 'delivered';
  return d.current_error ? 'failed' : 'not_yet';
}
