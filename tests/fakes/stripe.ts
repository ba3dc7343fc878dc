/**
 * The parts of Stripe's API that billing uses, on loopback, in Stripe's formats: form-encoded requests with nested
 * keys (line_items[0][price]), bearer secret key, JSON objects shaped as Stripe's (a subscription's period on its
 * items, an invoice's subscription under parent.subscription_details) and `{ error: { type, code, message, param } }`
 * errors. Stateful: checkout sessions, customers, subscriptions and portal sessions live in it, and the test plays
 * Stripe's side — completing a checkout, a failed renewal, a cancellation in the portal — then sends the events with
 * the real signing scheme (`signedEvent`, stripe.webhooks.generateTestHeaderString).
 *
 *   const stripe = await startFakeStripe({ secretKey: 'sk_test_x', prices: [{ id: 'price_pro', type: 'recurring' }] });
 *   env STRIPE_SECRET_KEY = 'sk_test_x', STRIPE_API_BASE_URL = stripe.url, STRIPE_WEBHOOK_SECRET = FAKE_WEBHOOK_SECRET
 *   const sub = stripe.completeCheckout(sessionId);                    // the customer paid
 *   const { body, headers } = stripe.signedEvent('checkout.session.completed', stripe.session(sessionId));
 *
 * Checkout's `expires_at` is checked as Stripe does (30 minutes to 24 hours ahead, else 400) and kept on the session;
 * completing an expired one throws. Cancellations (DELETE /v1/subscriptions/:id) are recorded in `cancellations`.
 * `holdSubscriptionReads(n)` makes the next n subscription reads wait for each other (a race test's barrier).
 */
import { randomBytes } from 'node:crypto';
import type http from 'node:http';
import Stripe from 'stripe';
import { json, startFakeServer, type FakeServer } from './http';

export const FAKE_WEBHOOK_SECRET = 'whsec_test_arb_fake';

export type FakePrice = { id: string; type: 'recurring' | 'one_time'; active?: boolean };
export type FakeCustomer = { id: string; email: string };
export type FakeCheckoutSession = { id: string; url: string; form: URLSearchParams };
type Json = Record<string, unknown>;

export type FakeStripe = FakeServer & {
  sessions: FakeCheckoutSession[];
  customers: FakeCustomer[];
  /** Subscriptions by id, as Stripe would answer them. */
  subscriptions: Map<string, Json>;
  /** Every cancellation asked for (DELETE /v1/subscriptions/:id), with its form fields, in order. */
  cancellations: Array<{ id: string; fields: Json }>;
  /** The next `n` subscription reads (GET /v1/subscriptions/:id) are answered only once all `n` have arrived. */
  holdSubscriptionReads(n: number): void;
  /** The checkout session object (as Stripe sends it in checkout.session.completed). */
  session(id: string): Json;
  /** The customer paid on the checkout page: a customer and (in subscription mode) an active subscription are made. */
  completeCheckout(sessionId: string, opts?: { email?: string }): Json;
  /** Changes a subscription the way Stripe would (a portal downgrade, a failed renewal, a cancellation). */
  setSubscription(id: string, change: { price?: string; status?: string; periodEnd?: number }): Json;
  /** An invoice of the subscription (invoice.paid / invoice.payment_failed). */
  invoice(subscriptionId: string, paid: boolean): Json;
  /** A signed webhook delivery: the raw body and its headers. */
  signedEvent(type: string, object: Json, opts?: { id?: string; secret?: string; created?: number }): { id: string; body: string; headers: Record<string, string> };
};

const newId = (prefix: string) => `${prefix}_${randomBytes(12).toString('hex')}`;
const nowSeconds = () => Math.floor(Date.now() / 1000);
const MONTH = 30 * 86_400;

function stripeError(res: http.ServerResponse, status: number, type: string, message: string, extra: Record<string, string> = {}) {
  json(res, status, { error: { type, message, ...extra } });
}

/** Stripe's nested form keys (metadata[org_id], items[0][price]) as an object. */
function formObject(form: URLSearchParams): Json {
  const out: Json = {};
  for (const [key, value] of form) {
    const parts = key.split(/\[|\]\[|\]/).filter(Boolean);
    let at: Json = out;
    parts.forEach((p, i) => {
      if (i === parts.length - 1) at[p] = value;
      else at = (at[p] ??= {}) as Json;
    });
  }
  return out;
}

const signer = new Stripe('sk_unused_for_signatures', { telemetry: false });

export type FakeStripeOptions = {
  secretKey: string;
  prices: FakePrice[];
  customers?: FakeCustomer[];
  /**
   * Serve the hosted Checkout page on loopback (browser tests): a session's URL is this fake's own page, whose "Pay"
   * completes the checkout, sends the signed checkout.session.completed to `webhookUrl` and goes to the success URL.
   */
  hostedCheckout?: { webhookUrl: () => string };
};

export async function startFakeStripe(options: FakeStripeOptions): Promise<FakeStripe> {
  const sessions: FakeCheckoutSession[] = [];
  const sessionObjects = new Map<string, Json>();
  const customers = [...(options.customers ?? [])];
  const subscriptions = new Map<string, Json>();
  const cancellations: Array<{ id: string; fields: Json }> = [];
  let held: { left: number; waiting: Array<() => void> } | null = null;
  /** Waits at the barrier of holdSubscriptionReads, if one is set. */
  async function atBarrier(): Promise<void> {
    const b = held;
    if (!b) return;
    b.left -= 1;
    if (b.left <= 0) {
      held = null;
      for (const go of b.waiting.splice(0)) go();
      return;
    }
    await new Promise<void>((resolve) => b.waiting.push(resolve));
  }

  const priceObject = (p: FakePrice) => ({
    id: p.id,
    object: 'price',
    active: p.active ?? true,
    type: p.type,
    currency: 'usd',
    unit_amount: 1900,
    recurring: p.type === 'recurring' ? { interval: 'month', interval_count: 1 } : null,
  });
  const priceOf = (id: string) => options.prices.find((p) => p.id === id);

  function subscriptionObject(input: { customer: string; price: string; metadata: Json }): Json {
    const id = newId('sub');
    const start = nowSeconds();
    const price = priceOf(input.price)!;
    return {
      id,
      object: 'subscription',
      customer: input.customer,
      status: 'active',
      cancel_at_period_end: false,
      canceled_at: null,
      created: start,
      start_date: start,
      livemode: false,
      metadata: input.metadata,
      items: {
        object: 'list',
        has_more: false,
        url: `/v1/subscription_items?subscription=${id}`,
        data: [{ id: newId('si'), object: 'subscription_item', subscription: id, quantity: 1, price: priceObject(price), current_period_start: start, current_period_end: start + MONTH }],
      },
    };
  }

  function setSubscription(id: string, change: { price?: string; status?: string; periodEnd?: number }): Json {
    const sub = subscriptions.get(id);
    if (!sub) throw new Error(`fake stripe: no subscription ${id}`);
    const item = (sub.items as { data: Json[] }).data[0];
    if (change.price) item.price = priceObject(priceOf(change.price)!);
    if (change.periodEnd) item.current_period_end = change.periodEnd;
    if (change.status) {
      sub.status = change.status;
      if (change.status === 'canceled') sub.canceled_at = nowSeconds();
    }
    return sub;
  }

  let hostedBase = '';
  const server = await startFakeServer([
    async (req, res) => {
      const page = /^\/c\/pay\/([\w]+)(\/pay)?$/.exec(req.path);
      if (!page || !options.hostedCheckout) return false;
      const s = sessionObjects.get(page[1]);
      if (!s) {
        res.writeHead(404, { 'Content-Type': 'text/html; charset=utf-8' }).end('<!doctype html><title>Not found</title><h1>This checkout session does not exist</h1>');
        return true;
      }
      if (req.method === 'GET' && !page[2]) {
        res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' });
        res.end(`<!doctype html><html lang="en"><title>Checkout</title><main><h1>Pay ARB</h1><form method="post" action="/c/pay/${s.id}/pay"><button>Pay</button></form></main></html>`);
        return true;
      }
      if (req.method === 'POST' && page[2]) {
        const completed = fake.completeCheckout(s.id as string);
        const event = fake.signedEvent('checkout.session.completed', completed);
        const delivered = await fetch(options.hostedCheckout.webhookUrl(), { method: 'POST', headers: event.headers, body: event.body });
        if (!delivered.ok) throw new Error(`the webhook answered ${delivered.status}: ${await delivered.text()}`);
        res.writeHead(303, { Location: s.success_url as string }).end();
        return true;
      }
      return false;
    },
    async (req, res) => {
      if (!req.path.startsWith('/v1/')) return false;
      if (req.headers.authorization !== `Bearer ${options.secretKey}`) {
        stripeError(res, 401, 'invalid_request_error', 'Invalid API Key provided: sk_****');
        return true;
      }
      const form = new URLSearchParams(req.body);
      const priceMatch = /^\/v1\/prices\/([^/]+)$/.exec(req.path);
      if (req.method === 'GET' && priceMatch) {
        const price = priceOf(decodeURIComponent(priceMatch[1]));
        if (!price) stripeError(res, 404, 'invalid_request_error', `No such price: '${priceMatch[1]}'`, { code: 'resource_missing', param: 'price' });
        else json(res, 200, priceObject(price));
        return true;
      }
      if (req.method === 'POST' && req.path === '/v1/checkout/sessions') {
        const price = priceOf(form.get('line_items[0][price]') ?? '');
        if (!price) {
          stripeError(res, 400, 'invalid_request_error', `No such price: '${form.get('line_items[0][price]')}'`, { param: 'line_items[0][price]' });
          return true;
        }
        if ((price.type === 'recurring') !== (form.get('mode') === 'subscription')) {
          stripeError(res, 400, 'invalid_request_error', 'You must provide a recurring price in `subscription` mode.', { param: 'mode' });
          return true;
        }
        const customer = form.get('customer');
        if (customer && !customers.some((c) => c.id === customer)) {
          stripeError(res, 400, 'invalid_request_error', `No such customer: '${customer}'`, { code: 'resource_missing', param: 'customer' });
          return true;
        }
        // Stripe's window for a Checkout session's expiry: 30 minutes to 24 hours after it is made.
        const expiresAt = form.get('expires_at') ? Number(form.get('expires_at')) : nowSeconds() + 86_400;
        if (!Number.isInteger(expiresAt) || expiresAt < nowSeconds() + 1800 - 5 || expiresAt > nowSeconds() + 86_400) {
          stripeError(res, 400, 'invalid_request_error', 'The `expires_at` timestamp must be between 30 minutes and 24 hours from Checkout Session creation.', { param: 'expires_at' });
          return true;
        }
        const sid = newId('cs_test');
        const session = { id: sid, url: options.hostedCheckout ? `${hostedBase}/c/pay/${sid}` : `https://checkout.stripe.com/c/pay/${sid}`, form };
        sessions.push(session);
        const fields = formObject(form);
        const object: Json = {
          id: sid,
          object: 'checkout.session',
          mode: form.get('mode'),
          status: 'open',
          payment_status: 'unpaid',
          url: session.url,
          client_reference_id: form.get('client_reference_id'),
          customer: customer ?? null,
          customer_email: form.get('customer_email'),
          metadata: fields.metadata ?? {},
          subscription: null,
          success_url: form.get('success_url'),
          cancel_url: form.get('cancel_url'),
          expires_at: expiresAt,
          livemode: false,
        };
        sessionObjects.set(sid, object);
        json(res, 200, object);
        return true;
      }
      if (req.method === 'GET' && req.path === '/v1/customers') {
        const email = req.query.get('email');
        const data = customers.filter((c) => !email || c.email === email).slice(0, Number(req.query.get('limit') ?? 10));
        json(res, 200, { object: 'list', url: '/v1/customers', has_more: false, data: data.map((c) => ({ id: c.id, object: 'customer', email: c.email })) });
        return true;
      }
      if (req.method === 'POST' && req.path === '/v1/billing_portal/sessions') {
        if (!customers.some((c) => c.id === form.get('customer'))) {
          stripeError(res, 400, 'invalid_request_error', `No such customer: '${form.get('customer')}'`, { code: 'resource_missing', param: 'customer' });
          return true;
        }
        const pid = newId('bps');
        json(res, 200, { id: pid, object: 'billing_portal.session', customer: form.get('customer'), return_url: form.get('return_url'), url: `https://billing.stripe.com/p/session/${pid}`, livemode: false });
        return true;
      }
      const subMatch = /^\/v1\/subscriptions\/([^/]+)$/.exec(req.path);
      if (subMatch) {
        const sub = subscriptions.get(decodeURIComponent(subMatch[1]));
        if (!sub) {
          stripeError(res, 404, 'invalid_request_error', `No such subscription: '${subMatch[1]}'`, { code: 'resource_missing', param: 'id' });
          return true;
        }
        if (req.method === 'GET') await atBarrier();
        if (req.method === 'DELETE') {
          if (sub.status === 'canceled' || sub.status === 'incomplete_expired') {
            stripeError(res, 400, 'invalid_request_error', `This subscription has already been canceled: ${sub.id}`);
            return true;
          }
          // stripe-node sends a DELETE's parameters in the query string.
          cancellations.push({ id: sub.id as string, fields: formObject(new URLSearchParams([...req.query, ...form])) });
          setSubscription(sub.id as string, { status: 'canceled' });
        }
        if (req.method === 'POST') {
          const fields = formObject(form) as { items?: Record<string, { price?: string }>; metadata?: Json };
          const price = fields.items?.['0']?.price;
          if (price && !priceOf(price)) {
            stripeError(res, 400, 'invalid_request_error', `No such price: '${price}'`, { param: 'items[0][price]' });
            return true;
          }
          if (sub.status === 'canceled') {
            stripeError(res, 400, 'invalid_request_error', 'A canceled subscription can only update its cancellation_details and metadata.');
            return true;
          }
          if (price) setSubscription(sub.id as string, { price });
          if (fields.metadata) sub.metadata = { ...(sub.metadata as Json), ...fields.metadata };
        }
        json(res, 200, sub);
        return true;
      }
      stripeError(res, 404, 'invalid_request_error', `Unrecognized request URL (${req.method}: ${req.path}).`);
      return true;
    },
  ]);

  hostedBase = server.url;
  const fake: FakeStripe = Object.assign(server, {
    sessions,
    customers,
    subscriptions,
    cancellations,
    holdSubscriptionReads(n: number) {
      held = { left: n, waiting: [] };
    },
    session(id: string) {
      const s = sessionObjects.get(id);
      if (!s) throw new Error(`fake stripe: no checkout session ${id}`);
      return s;
    },
    completeCheckout(sessionId: string, opts: { email?: string } = {}) {
      const s = sessionObjects.get(sessionId);
      if (!s) throw new Error(`fake stripe: no checkout session ${sessionId}`);
      if ((s.expires_at as number) < nowSeconds()) throw new Error(`fake stripe: checkout session ${sessionId} has expired`);
      const form = sessions.find((x) => x.id === sessionId)!.form;
      let customer = s.customer as string | null;
      if (!customer) {
        customer = newId('cus');
        customers.push({ id: customer, email: opts.email ?? (s.customer_email as string) ?? 'buyer@example.com' });
      }
      Object.assign(s, { status: 'complete', payment_status: 'paid', customer });
      if (s.mode === 'subscription') {
        const metadata = (formObject(form).subscription_data as { metadata?: Json } | undefined)?.metadata ?? {};
        const sub = subscriptionObject({ customer, price: form.get('line_items[0][price]')!, metadata });
        subscriptions.set(sub.id as string, sub);
        s.subscription = sub.id;
      }
      return s;
    },
    setSubscription,
    invoice(subscriptionId: string, paid: boolean) {
      const sub = subscriptions.get(subscriptionId)!;
      return {
        id: newId('in'),
        object: 'invoice',
        customer: sub.customer,
        status: paid ? 'paid' : 'open',
        amount_due: 1900,
        amount_paid: paid ? 1900 : 0,
        currency: 'usd',
        attempt_count: paid ? 1 : 2,
        parent: { type: 'subscription_details', quote_details: null, subscription_details: { metadata: sub.metadata, subscription: sub.id } },
        livemode: false,
      };
    },
    signedEvent(type: string, object: Json, opts: { id?: string; secret?: string; created?: number } = {}) {
      const id = opts.id ?? newId('evt');
      const body = JSON.stringify({
        id,
        object: 'event',
        api_version: '2026-10-28.endive',
        created: opts.created ?? nowSeconds(),
        type,
        livemode: false,
        pending_webhooks: 1,
        request: { id: null, idempotency_key: null },
        data: { object: structuredClone(object) },
      });
      const signature = signer.webhooks.generateTestHeaderString({ payload: body, secret: opts.secret ?? FAKE_WEBHOOK_SECRET });
      return { id, body, headers: { 'Content-Type': 'application/json; charset=utf-8', 'Stripe-Signature': signature } };
    },
  });
  return fake;
}
