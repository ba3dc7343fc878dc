/**
 * POST v1/stripe/webhook: Stripe's events, verified with STRIPE_WEBHOOK_SECRET on the exact bytes received (the
 * `Stripe-Signature` scheme, by the stripe package). A bad or missing signature is a 400 that changes nothing. Each
 * event id is applied once (stripe_events); an event whose application failed is given back, answered 500, and
 * Stripe delivers it again. The events name a subscription; its current state is read from Stripe and applied
 * (sync.ts), which makes the order they arrive in irrelevant.
 *
 * A stranger's request is refused before its body is read: the header must have Stripe's shape (`t=<seconds>`, one or
 * more `v1=<64 hex>`) with `t` within the tolerance of our clock, and a declared body over WEBHOOK_MAX_BYTES is 413.
 * Those refusals close the connection instead of reading the unread bytes (UNREAD_BODY_HEADERS).
 */
import type { IncomingMessage } from 'node:http';
import { env } from '../env';
import { HttpError, badRequest, serviceUnavailable } from '../http/errors';
import { readBody, UNREAD_BODY_HEADERS } from '../http/body';
import { log } from '../log';
import { claimStripeEvent, orgExists, releaseStripeEvent, saveCustomerOnly, setStripeEventOrg } from './data';
import { stripeWebhooks, type Stripe } from './stripe';
import { idOf, syncSubscription } from './sync';

/** Stripe's events are a few kilobytes (an invoice with many lines some tens): a quarter of a megabyte is plenty. */
export const WEBHOOK_MAX_BYTES = 256 * 1024;

/** How far the header's `t` may be from our clock, either way: the stripe package's default tolerance. */
export const SIGNATURE_TOLERANCE_SECONDS = 300;

/** Stripe-Signature as Stripe sends it: `t=1492774577,v1=5257a8…,v0=6ffbb5…` (a few elements, each `k=v`). */
const MAX_SIGNATURE_HEADER = 2048;

/**
 * Why the header cannot be Stripe's (missing, not its shape, a `t` outside the tolerance), or null when it may be:
 * checked before the body is read, so a stranger's request costs a header's parse.
 */
export function signatureHeaderProblem(header: string | string[] | undefined, nowSeconds: number): string | null {
  if (typeof header !== 'string' || !header) return 'The Stripe-Signature header is missing.';
  if (header.length > MAX_SIGNATURE_HEADER) return 'The Stripe-Signature header is too long to be Stripe’s.';
  const parts = header.split(',').map((p) => p.trim());
  const timestamps = parts.filter((p) => p.startsWith('t='));
  const signatures = parts.filter((p) => p.startsWith('v1='));
  if (timestamps.length !== 1 || !/^t=\d{1,12}$/.test(timestamps[0]) || !signatures.length || !signatures.every((v) => /^v1=[0-9a-f]{64}$/.test(v))) {
    return 'The Stripe-Signature header is not in Stripe’s format (t=<timestamp>,v1=<signature>).';
  }
  const t = Number(timestamps[0].slice(2));
  if (Math.abs(nowSeconds - t) > SIGNATURE_TOLERANCE_SECONDS) {
    return 'The Stripe-Signature timestamp is more than five minutes away from now (a replayed event, or a clock that is off).';
  }
  return null;
}

export const HANDLED_EVENTS = [
  'checkout.session.completed',
  'customer.subscription.created',
  'customer.subscription.updated',
  'customer.subscription.deleted',
  'invoice.paid',
  'invoice.payment_failed',
] as const;

/** The verified event of a request, or a 400 saying why not. */
export async function verifiedEvent(req: IncomingMessage): Promise<Stripe.Event> {
  const secret = env().STRIPE_WEBHOOK_SECRET;
  if (!secret || !env().STRIPE_SECRET_KEY) throw serviceUnavailable('Billing is not configured on this server.');
  const signature = req.headers['stripe-signature'];
  const problem = signatureHeaderProblem(signature, Math.floor(Date.now() / 1000));
  if (problem) {
    log.info('stripe webhook refused before its body', { reason: problem });
    throw new HttpError(400, 'invalid_signature', problem, UNREAD_BODY_HEADERS);
  }
  const declared = Number(req.headers['content-length']);
  if (Number.isFinite(declared) && declared > WEBHOOK_MAX_BYTES) {
    throw new HttpError(413, 'payload_too_large', `Request body is larger than ${WEBHOOK_MAX_BYTES} bytes.`, UNREAD_BODY_HEADERS);
  }
  const raw = await readBody(req, WEBHOOK_MAX_BYTES);
  try {
    return stripeWebhooks().constructEvent(raw, signature as string, secret, SIGNATURE_TOLERANCE_SECONDS);
  } catch (err) {
    log.warn('stripe webhook refused: bad signature', { err: (err as Error).message });
    throw badRequest('The Stripe-Signature header does not match this request.', 'invalid_signature');
  }
}

/** The subscription an invoice is for (Stripe's current shape, and the older top-level field). */
function invoiceSubscription(invoice: Stripe.Invoice): string | undefined {
  const parent = invoice.parent?.subscription_details?.subscription;
  return idOf(parent ?? (invoice as unknown as { subscription?: string | null }).subscription);
}

/** Applies one event; the organisation it concerned, if any. */
async function apply(event: Stripe.Event): Promise<string | undefined> {
  switch (event.type) {
    case 'checkout.session.completed': {
      const session = event.data.object;
      const orgId = session.client_reference_id ?? session.metadata?.org_id ?? null;
      if (!orgId || !(await orgExists(orgId))) {
        log.info('stripe checkout without an organisation', { session: session.id });
        return undefined;
      }
      const subscription = idOf(session.subscription);
      if (subscription) return syncSubscription(subscription, orgId);
      const customer = idOf(session.customer);
      if (customer) await saveCustomerOnly(orgId, customer);
      return orgId;
    }
    case 'customer.subscription.created':
    case 'customer.subscription.updated':
    case 'customer.subscription.deleted':
      return syncSubscription(event.data.object.id);
    case 'invoice.paid':
    case 'invoice.payment_failed': {
      const subscription = invoiceSubscription(event.data.object);
      return subscription ? syncSubscription(subscription) : undefined;
    }
    default:
      return undefined;
  }
}

export async function handleStripeWebhook(req: IncomingMessage): Promise<{ received: true; duplicate?: true }> {
  const event = await verifiedEvent(req);
  if (!(HANDLED_EVENTS as readonly string[]).includes(event.type)) return { received: true };
  if (!(await claimStripeEvent(event.id, event.type))) {
    log.info('stripe event already applied', { event: event.id, type: event.type });
    return { received: true, duplicate: true };
  }
  try {
    const orgId = await apply(event);
    if (orgId) await setStripeEventOrg(event.id, orgId);
    log.info('stripe event applied', { event: event.id, type: event.type });
    return { received: true };
  } catch (err) {
    await releaseStripeEvent(event.id);
    log.error('stripe event failed: Stripe will deliver it again', { event: event.id, type: event.type, err });
    if (err instanceof HttpError) throw err;
    throw new HttpError(500, 'event_failed', 'The event could not be applied now. Stripe will deliver it again.');
  }
}
