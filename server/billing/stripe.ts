/**
 * The few Stripe API calls billing needs, over plain HTTPS (form-encoded requests, JSON answers) at
 * STRIPE_API_BASE_URL. Without STRIPE_SECRET_KEY billing is off and every billing call answers 503 saying so.
 */
import { env } from '../env';
import { HttpError, badGateway, serviceUnavailable } from '../http/errors';
import { log } from '../log';

const STRIPE_TIMEOUT_MS = 15_000;

type StripeErrorBody = { error?: { type?: string; code?: string; message?: string; param?: string } };

export class StripeRequestError extends Error {
  constructor(public status: number, public body: StripeErrorBody) {
    super(body.error?.message ?? `Stripe answered HTTP ${status}`);
  }
}

export function stripeSecretKey(): string {
  const key = env().STRIPE_SECRET_KEY;
  if (!key) throw serviceUnavailable('Billing is not configured on this server.');
  return key;
}

/** Stripe's form encoding of nested values: metadata[org_id]=…, line_items[0][price]=… */
export function stripeForm(params: Record<string, unknown>, prefix = '', out = new URLSearchParams()): URLSearchParams {
  for (const [k, v] of Object.entries(params)) {
    if (v === undefined || v === null) continue;
    const key = prefix ? `${prefix}[${k}]` : k;
    if (typeof v === 'object') stripeForm(v as Record<string, unknown>, key, out);
    else out.append(key, String(v));
  }
  return out;
}

export async function stripeRequest<T>(method: 'GET' | 'POST', path: string, params: Record<string, unknown> = {}): Promise<T> {
  const key = stripeSecretKey();
  const form = stripeForm(params);
  const url = new URL(path, env().STRIPE_API_BASE_URL.replace(/\/?$/, '/'));
  if (method === 'GET') form.forEach((v, k) => url.searchParams.append(k, v));
  let res: Response;
  try {
    res = await fetch(url, {
      method,
      headers: {
        Authorization: `Bearer ${key}`,
        ...(method === 'POST' ? { 'Content-Type': 'application/x-www-form-urlencoded' } : {}),
      },
      body: method === 'POST' ? form : undefined,
      redirect: 'error',
      signal: AbortSignal.timeout(STRIPE_TIMEOUT_MS),
    });
  } catch (err) {
    log.error('stripe unreachable', { err, path });
    throw badGateway('The payment provider did not answer. Try again in a minute.');
  }
  const body = (await res.json().catch(() => ({}))) as T & StripeErrorBody;
  if (!res.ok) throw new StripeRequestError(res.status, body);
  return body;
}

/** A Stripe refusal as our answer: the caller's mistakes are 4xx, Stripe's or our configuration's are 502. */
export function toHttpError(err: unknown, notFoundMessage: string): unknown {
  if (!(err instanceof StripeRequestError)) return err;
  if (err.status === 404 || err.body.error?.code === 'resource_missing') return new HttpError(404, 'not_found', notFoundMessage);
  if (err.status === 400 && err.body.error?.type === 'invalid_request_error') {
    return new HttpError(400, 'billing_rejected', `The payment provider refused this request: ${err.body.error.message ?? 'invalid request'}`);
  }
  log.error('stripe request failed', { status: err.status, type: err.body.error?.type, message: err.message });
  return badGateway('The payment provider could not handle this request. Try again later.');
}
