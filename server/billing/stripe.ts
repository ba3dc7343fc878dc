/**
 * The Stripe client: the official `stripe` package, pointed at STRIPE_API_BASE_URL (scheme, host and port: tests point
 * it at a loopback fake). Without STRIPE_SECRET_KEY billing is off and every billing call answers 503 saying so.
 */
import Stripe from 'stripe';
import { env } from '../env';
import { HttpError, badGateway, serviceUnavailable } from '../http/errors';
import { log } from '../log';

const STRIPE_TIMEOUT_MS = 15_000;

export type { Stripe };

export function stripeSecretKey(): string {
  const key = env().STRIPE_SECRET_KEY;
  if (!key) throw serviceUnavailable('Billing is not configured on this server.');
  return key;
}

let cached: { key: string; base: string; client: Stripe } | undefined;

/** The client for the configured key and API address (made again when either changes, as tests do). */
export function stripeClient(): Stripe {
  const key = stripeSecretKey();
  const base = env().STRIPE_API_BASE_URL;
  if (cached?.key === key && cached.base === base) return cached.client;
  const url = new URL(base);
  const protocol = url.protocol === 'http:' ? 'http' : 'https';
  const client = new Stripe(key, {
    host: url.hostname,
    port: url.port ? Number(url.port) : protocol === 'http' ? 80 : 443,
    protocol,
    timeout: STRIPE_TIMEOUT_MS,
    // One retry of a request that is safe to repeat (the library adds idempotency keys to POSTs).
    maxNetworkRetries: 1,
    telemetry: false,
  });
  cached = { key, base, client };
  return client;
}

/** Webhook signature checks need no API key: a client made only for them (its key is never used). */
let verifier: Stripe | undefined;
export function stripeWebhooks(): Stripe['webhooks'] {
  verifier ??= new Stripe('sk_unused_for_signatures', { telemetry: false });
  return verifier.webhooks;
}

/** A Stripe refusal as our answer: the caller's mistakes are 4xx, Stripe's or our configuration's (or no answer) are 502. */
export function toHttpError(err: unknown, notFoundMessage: string): unknown {
  if (err instanceof HttpError || !(err instanceof Stripe.errors.StripeError)) return err;
  if (err.statusCode === 404 || err.code === 'resource_missing') return new HttpError(404, 'not_found', notFoundMessage);
  if (err.statusCode === 400 && err.type === 'StripeInvalidRequestError') {
    return new HttpError(400, 'billing_rejected', `The payment provider refused this request: ${err.message || 'invalid request'}`);
  }
  if (err.type === 'StripeConnectionError') {
    log.error('stripe unreachable', { message: err.message });
    return badGateway('The payment provider did not answer. Try again in a minute.');
  }
  log.error('stripe request failed', { status: err.statusCode, type: err.type, code: err.code, message: err.message });
  return badGateway('The payment provider could not handle this request. Try again later.');
}
