/**
 * The browser's API functions against a real loopback HTTP server (no axios mocks): what they send, and the product's
 * error behaviour — auth and billing calls log 'Serious Error AuthExchange' and resolve null, the e-mail call returns
 * null, search logs and returns nothing, the others throw an ApiError carrying the server's message.
 */
import { afterEach, beforeEach, describe, expect, test, vi, type MockInstance } from 'vitest';
import { fail, notPreflight, ok, outsideRoute, route, startApiFake, type ApiFake } from './support/apiFake';
import { connected, signedIn } from './support/answers';
import { json } from '@/tests/fakes/http';
import { searchApps, getAppDetails, sendAppSelectedEvent } from '@/lib/api/apps';
import { confirmEmailCode, crmExchange, exchangeToken, refreshAuthToken, sendEmailCode } from '@/lib/api/auth';
import { openBillingPortal, purchase, quickPay } from '@/lib/api/billing';
import { ApiError } from '@/lib/api/client';
import { connectBot, connectPlatform, finishSlackOAuth, getDestination } from '@/lib/api/connect';
import { requestReviewsByEmail, requestSummaryByEmail } from '@/lib/api/publicReviews';

let fake: ApiFake;
let consoleError: MockInstance;

beforeEach(() => {
  consoleError = vi.spyOn(console, 'error').mockImplementation(() => undefined);
});

afterEach(async () => {
  consoleError.mockRestore();
  vi.unstubAllEnvs();
  fake?.restore();
  await fake?.close();
});

const body = async (path: string) => JSON.parse((await fake.waitForRequests(1, (r) => notPreflight(r) && r.path === path))[0].body);
const metadata = { utm_source: 'newsletter', utm_medium: null, utm_campaign: null, referral: 'partner' };

describe('auth calls', () => {
  test('e-mail: sends email and captcha_token; null on error', async () => {
    fake = await startApiFake([route('POST', '/api/v1/auth/email', ok({ sent: true }))]);
    await expect(sendEmailCode('ana@example.com', 'cap-1')).resolves.toEqual({ sent: true });
    expect(await body('/api/v1/auth/email')).toEqual({ email: 'ana@example.com', captcha_token: 'cap-1' });
    await fake.close();
    fake = await startApiFake([route('POST', '/api/v1/auth/email', fail(429, 'rate_limited', 'Too many codes. Try again in 10 minutes.'))]);
    const onError = vi.fn();
    await expect(sendEmailCode('ana@example.com', '', { onError })).resolves.toBeNull();
    expect(consoleError).toHaveBeenCalledWith('Serious Error AuthExchange', expect.any(ApiError));
    expect(onError).toHaveBeenCalledWith(expect.objectContaining({ status: 429, code: 'rate_limited', message: 'Too many codes. Try again in 10 minutes.' }));
  });

  test('confirm: sends email, code and captcha_token; throws the server’s message', async () => {
    fake = await startApiFake([route('POST', '/api/v1/auth/email/confirm', fail(400, 'invalid_code', 'That code is wrong or has expired.'))]);
    await expect(confirmEmailCode('ana@example.com', '123456', 'cap')).rejects.toMatchObject({ status: 400, message: 'That code is wrong or has expired.' });
    expect(await body('/api/v1/auth/email/confirm')).toEqual({ email: 'ana@example.com', code: '123456', captcha_token: 'cap' });
  });

  test('token exchange: sends token and attribution metadata; null and the log on error', async () => {
    fake = await startApiFake([route('POST', '/api/v1/auth/token/exchange', ok(signedIn({ name: 'Ana' })))]);
    await expect(exchangeToken('one-time', metadata)).resolves.toEqual(signedIn({ name: 'Ana' }));
    expect(await body('/api/v1/auth/token/exchange')).toEqual({ token: 'one-time', metadata });
    await fake.close();
    fake = await startApiFake([route('POST', '/api/v1/auth/token/exchange', fail(401, 'invalid_token', 'This sign-in link has expired.'))]);
    await expect(exchangeToken('used', metadata)).resolves.toBeNull();
    expect(consoleError).toHaveBeenCalledWith('Serious Error AuthExchange', expect.any(ApiError));
  });

  test('refresh: bearer token in, token out; null on error', async () => {
    fake = await startApiFake([route('GET', '/api/v1/auth/token/refresh', ok({ token: 'new' }))]);
    await expect(refreshAuthToken('old')).resolves.toBe('new');
    expect((await fake.waitForRequests(1, notPreflight))[0].headers.authorization).toBe('Bearer old');
    await fake.close();
    fake = await startApiFake([route('GET', '/api/v1/auth/token/refresh', fail(401, 'unauthorized', 'Sign in again.'))]);
    await expect(refreshAuthToken('old')).resolves.toBeNull();
    expect(consoleError).toHaveBeenCalledWith('Serious Error AuthExchange', expect.any(ApiError));
  });

  test('crm-exchange: sends org_id; null on error', async () => {
    fake = await startApiFake([route('POST', '/api/v1/auth/token/crm-exchange', ok({ authToken: 'billing.jwt', email: 'owner@example.com' }))]);
    await expect(crmExchange('org_123')).resolves.toEqual({ authToken: 'billing.jwt', email: 'owner@example.com' });
    expect(await body('/api/v1/auth/token/crm-exchange')).toEqual({ org_id: 'org_123' });
    await fake.close();
    fake = await startApiFake([route('POST', '/api/v1/auth/token/crm-exchange', fail(404, 'not_found', 'No such organisation.'))]);
    await expect(crmExchange('org_404')).resolves.toBeNull();
  });

  test('an unreachable server is an error too, not a crash', async () => {
    fake = await startApiFake([]);
    await fake.close();
    await expect(sendEmailCode('ana@example.com', '')).resolves.toBeNull();
    expect(consoleError).toHaveBeenCalledWith('Serious Error AuthExchange', expect.objectContaining({ code: 'network_error' }));
  });
});

describe('billing calls', () => {
  test('purchase: bearer and price_id; billing off (503) resolves null and hands over the message', async () => {
    fake = await startApiFake([route('POST', '/api/v1/org/billing/purchase', fail(503, 'billing_disabled', 'Billing is not set up on this server.'))]);
    const onError = vi.fn();
    await expect(purchase({ price_id: 'pro' }, 'billing.jwt', { onError })).resolves.toBeNull();
    const [req] = await fake.waitForRequests(1, notPreflight);
    expect(req.headers.authorization).toBe('Bearer billing.jwt');
    expect(JSON.parse(req.body)).toEqual({ price_id: 'pro' });
    expect(onError).toHaveBeenCalledWith(expect.objectContaining({ status: 503, message: 'Billing is not set up on this server.' }));
    expect(consoleError).toHaveBeenCalledWith('Serious Error AuthExchange', expect.any(ApiError));
  });

  test('portal and quick-pay pass the payload through and return the URL', async () => {
    fake = await startApiFake([
      route('POST', '/api/v1/stripe/portal', ok({ url: 'https://billing.example/portal' })),
      route('POST', '/api/v1/stripe/quick-pay', ok({ url: 'https://billing.example/pay' })),
    ]);
    await expect(openBillingPortal({ return_url: '/dashboard' }, 't')).resolves.toEqual({ url: 'https://billing.example/portal' });
    await expect(quickPay({ price_id: 'team', quantity: 2 })).resolves.toEqual({ url: 'https://billing.example/pay' });
    expect(await body('/api/v1/stripe/quick-pay')).toEqual({ price_id: 'team', quantity: 2 });
  });
});

describe('search', () => {
  test('POSTs query, country and app_store to the search service and returns the list', async () => {
    fake = await startApiFake([
      outsideRoute('POST', '/search-service/search', ok([{ app_id: '1', app_store: 'apple_app_store', title: 'Spotify', developer: 'Spotify AB' }])),
    ]);
    vi.stubEnv('NEXT_PUBLIC_SEARCH_BASE', `${fake.url}/search-service`);
    await expect(searchApps({ query: 'spot', appStore: 'apple_app_store' })).resolves.toEqual([
      { app_id: '1', app_store: 'apple_app_store', title: 'Spotify', developer: 'Spotify AB' },
    ]);
    expect(await body('/search-service/search')).toEqual({ query: 'spot', country: 'us', app_store: 'apple_app_store' });
  });

  test('accepts a bare array from an edge service', async () => {
    fake = await startApiFake([route('POST', '/api/search', (_r, res) => json(res, 200, [{ app_id: 'x', app_store: 'google_play_store', title: 'X' }]))]);
    vi.stubEnv('NEXT_PUBLIC_SEARCH_BASE', fake.apiBase);
    await expect(searchApps({ query: 'x', appStore: 'google_play_store', country: 'gb' })).resolves.toHaveLength(1);
  });

  test('logs errors and returns nothing', async () => {
    fake = await startApiFake([route('POST', '/api/search', fail(502, 'upstream', 'The store did not answer.'))]);
    vi.stubEnv('NEXT_PUBLIC_SEARCH_BASE', fake.apiBase);
    await expect(searchApps({ query: 'x', appStore: 'apple_app_store' })).resolves.toBeNull();
    expect(consoleError).toHaveBeenCalledWith('App search failed', expect.any(ApiError));
  });

  test('an aborted search returns nothing and logs nothing', async () => {
    fake = await startApiFake([route('POST', '/api/search', () => new Promise(() => undefined))]);
    vi.stubEnv('NEXT_PUBLIC_SEARCH_BASE', fake.apiBase);
    const controller = new AbortController();
    const pending = searchApps({ query: 'x', appStore: 'apple_app_store' }, controller.signal);
    await fake.waitForRequests(1, notPreflight);
    controller.abort();
    await expect(pending).resolves.toBeNull();
    expect(consoleError).not.toHaveBeenCalled();
  });
});

describe('apps and public calls', () => {
  test('app details: GET with app_id and app_store; a missing app throws the server’s message', async () => {
    fake = await startApiFake([
      route('GET', '/api/v1/public/app-details', (req, res) =>
        req.query.get('app_id') === '1'
          ? json(res, 200, { data: { app_id: '1', app_store: 'apple_app_store', title: 'Spotify' } })
          : json(res, 404, { error: { code: 'not_found', message: 'No app with that id in the App Store.' } }),
      ),
    ]);
    await expect(getAppDetails('1', 'apple_app_store')).resolves.toEqual({ app_id: '1', app_store: 'apple_app_store', title: 'Spotify' });
    await expect(getAppDetails('2', 'apple_app_store')).rejects.toMatchObject({ status: 404, message: 'No app with that id in the App Store.' });
  });

  test('the app_selected event never throws', async () => {
    fake = await startApiFake([route('GET', '/api/v1/apps/event', fail(500, 'internal', 'Oops'))]);
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    await expect(sendAppSelectedEvent('1', 'apple_app_store')).resolves.toBe(false);
    warn.mockRestore();
  });

  test('connect, bot, slack callback and destination send what the contract says', async () => {
    fake = await startApiFake([
      route('POST', '/api/v1/oauth/platform/connect', ok(connected({ destination_id: 'd1', platform: 'discord' }))),
      route('POST', '/api/v1/oauth/bot/connect', ok(connected({ destination_id: 'd2', platform: 'discord' }))),
      route('POST', '/api/v1/oauth/slack/callback', ok(connected({ destination_id: 'd3' }))),
      route('GET', '/api/v1/public/destination/d%201', ok({ id: 'd 1', platform: 'discord', status: 'active' })),
    ]);
    await expect(connectPlatform({ platform: 'discord', payload: 'eyJ2IjoxfQ' })).resolves.toMatchObject({ destination_id: 'd1' });
    expect(await body('/api/v1/oauth/platform/connect')).toEqual({ platform: 'discord', payload: 'eyJ2IjoxfQ' });
    await expect(connectBot({ platform: 'discord', code: 'c', state: 's' })).resolves.toEqual(connected({ destination_id: 'd2', platform: 'discord' }));
    await expect(finishSlackOAuth({ code: 'c', state: 's' })).resolves.toEqual(connected({ destination_id: 'd3' }));
    await expect(getDestination('d 1')).resolves.toMatchObject({ id: 'd 1', status: 'active' });
  });

  test('reviews and summary by e-mail throw the server’s validation message', async () => {
    fake = await startApiFake([
      route('POST', '/api/v1/public/reviews', ok({ queued: true, confirmation_required: false })),
      route('POST', '/api/v1/public/send-summary', fail(400, 'invalid_email', 'Enter a valid e-mail address.')),
    ]);
    await expect(requestReviewsByEmail({ email: 'a@b.co', app_id: '1', app_store: 'apple_app_store' })).resolves.toEqual({ queued: true, confirmation_required: false });
    await expect(requestSummaryByEmail({ email: 'nope', app_id: '1', app_store: 'apple_app_store' })).rejects.toMatchObject({ message: 'Enter a valid e-mail address.' });
  });
});
