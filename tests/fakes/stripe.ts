/**
 * The parts of Stripe's API that billing uses, on loopback, in Stripe's formats: form-encoded requests with nested
 * keys (line_items[0][price]), bearer secret key, JSON objects and `{ error: { type, code, message, param } }` errors.
 *
 *   const stripe = await startFakeStripe({ secretKey: 'sk_test_x', prices: [{ id: 'price_pro', type: 'recurring' }] });
 *   env STRIPE_SECRET_KEY = 'sk_test_x', STRIPE_API_BASE_URL = stripe.url
 */
import { randomBytes } from 'node:crypto';
import type http from 'node:http';
import { json, startFakeServer, type FakeServer } from './http';

export type FakePrice = { id: string; type: 'recurring' | 'one_time'; active?: boolean };
export type FakeCustomer = { id: string; email: string };
export type FakeCheckoutSession = { id: string; url: string; form: URLSearchParams };

export type FakeStripe = FakeServer & { sessions: FakeCheckoutSession[]; customers: FakeCustomer[] };

const id = (prefix: string) => `${prefix}_${randomBytes(12).toString('hex')}`;

function stripeError(res: http.ServerResponse, status: number, type: string, message: string, extra: Record<string, string> = {}) {
  json(res, status, { error: { type, message, ...extra } });
}

export async function startFakeStripe(options: { secretKey: string; prices: FakePrice[]; customers?: FakeCustomer[] }): Promise<FakeStripe> {
  const sessions: FakeCheckoutSession[] = [];
  const customers = [...(options.customers ?? [])];
  const server = await startFakeServer([
    (req, res) => {
      if (!req.path.startsWith('/v1/')) return false;
      if (req.headers.authorization !== `Bearer ${options.secretKey}`) {
        stripeError(res, 401, 'invalid_request_error', 'Invalid API Key provided: sk_****');
        return true;
      }
      const priceMatch = /^\/v1\/prices\/([^/]+)$/.exec(req.path);
      if (req.method === 'GET' && priceMatch) {
        const price = options.prices.find((p) => p.id === decodeURIComponent(priceMatch[1]));
        if (!price) {
          stripeError(res, 404, 'invalid_request_error', `No such price: '${priceMatch[1]}'`, { code: 'resource_missing', param: 'price' });
        } else {
          json(res, 200, { id: price.id, object: 'price', active: price.active ?? true, type: price.type, currency: 'usd', unit_amount: 1900 });
        }
        return true;
      }
      if (req.method === 'POST' && req.path === '/v1/checkout/sessions') {
        const form = new URLSearchParams(req.body);
        const price = options.prices.find((p) => p.id === form.get('line_items[0][price]'));
        if (!price) {
          stripeError(res, 400, 'invalid_request_error', `No such price: '${form.get('line_items[0][price]')}'`, { param: 'line_items[0][price]' });
          return true;
        }
        if ((price.type === 'recurring') !== (form.get('mode') === 'subscription')) {
          stripeError(res, 400, 'invalid_request_error', 'You must provide a recurring price in `subscription` mode.', { param: 'mode' });
          return true;
        }
        const sid = id('cs_test');
        const session = { id: sid, url: `https://checkout.stripe.com/c/pay/${sid}`, form };
        sessions.push(session);
        json(res, 200, { id: sid, object: 'checkout.session', mode: form.get('mode'), url: session.url });
        return true;
      }
      if (req.method === 'GET' && req.path === '/v1/customers') {
        const email = req.query.get('email');
        const data = customers.filter((c) => !email || c.email === email).slice(0, Number(req.query.get('limit') ?? 10));
        json(res, 200, { object: 'list', url: '/v1/customers', has_more: false, data: data.map((c) => ({ id: c.id, object: 'customer', email: c.email })) });
        return true;
      }
      if (req.method === 'POST' && req.path === '/v1/billing_portal/sessions') {
        const form = new URLSearchParams(req.body);
        if (!customers.some((c) => c.id === form.get('customer'))) {
          stripeError(res, 400, 'invalid_request_error', `No such customer: '${form.get('customer')}'`, { code: 'resource_missing', param: 'customer' });
          return true;
        }
        const pid = id('bps');
        json(res, 200, { id: pid, object: 'billing_portal.session', customer: form.get('customer'), return_url: form.get('return_url'), url: `https://billing.stripe.com/p/session/${pid}` });
        return true;
      }
      stripeError(res, 404, 'invalid_request_error', `Unrecognized request URL (${req.method}: ${req.path}).`);
      return true;
    },
  ]);
  return Object.assign(server, { sessions, customers });
}
