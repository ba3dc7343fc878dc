// The public API through the real routes on a real database (PGlite and PostgreSQL), called with real `arb_` keys
// made by the dashboard's endpoint: who may call (no key, a mistyped, revoked or made-up key, a sign-in token: 401),
// the organisation's apps, one app's reviews newest first in the public shape, paging by review id and by time, the
// filters, bad input (400 naming the field), another organisation's app (404), the per-key rate (429 + Retry-After).
// The seed product's n8n node's exact requests: publicApiSeedRequests.test.ts.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type Stripe from 'stripe';
import { getDb } from '@/server/db/client';
import { flushApiUsage } from '@/server/apiKeys/callCounts';
import { applySubscription } from '@/server/billing/sync';
import { startApiWorld, type ApiWorld } from '../helpers/apiWorld';
import { call } from '../helpers/request';
import { newOwner, type SignedInUser } from '../helpers/orgs';
import { appWith, HOUR, type Seed } from '../helpers/seedReviews';
import { newApiKey } from './support/apiKeys';

const w = {} as ApiWorld;
beforeAll(async () => {
  Object.assign(w, await startApiWorld({ TRUST_PROXY: '1', PUBLIC_API_RATE_PER_MINUTE: '1000' }));
}, 60_000);
afterAll(() => w.close());

type App = { id: string; key: string; app_id: string; app_store: string; title: string; review_count: number };
type Review = Record<string, unknown> & { id: string; content_body: string; content_updated_at: number; content_rating: number; country: string | null };

/** The fields the seed product's public API gives each review: clients written for it read these. */
const PUBLIC_FIELDS = [
  'id', 'app_store', 'author_display_name', 'content_title', 'content_body', 'content_rating', 'content_updated_at',
  'reply_text', 'country', 'store_permalink', 'sentiment', 'language',
];

const keyFor = (owner: SignedInUser, name = 'n8n') => newApiKey(w.api, { token: owner.token }, name);

const get = <D = Review[]>(key: string | null, path: string) => call<D>(w.api, 'GET', `/api/v1${path}`, undefined, key ? { token: key } : {});
const seeds = (n: number, f: (i: number) => Partial<Seed> = () => ({})): Seed[] => Array.from({ length: n }, (_, i) => ({ body: `review ${i}`, hoursAgo: i + 1, ...f(i) }));

describe('who may call', () => {
  test('no key, a mistyped, made-up or revoked key, and a sign-in token get 401 with what to do', async () => {
    const owner = await newOwner();
    const { key, id } = await keyFor(owner);
    const none = await get(null, '/apps');
    expect(none.status).toBe(401);
    expect(none.json.error).toMatchObject({ code: 'unauthorized', message: expect.stringContaining('Authorization: Bearer arb_') });
    for (const bad of [`${key.slice(0, -1)}${key.endsWith('A') ? 'B' : 'A'}`, 'arb_short', `arb_${'x'.repeat(40)}`, owner.token]) {
      const r = await get(bad, '/apps');
      expect(r.status, bad.slice(0, 12)).toBe(401);
      expect(r.json.error?.message).toContain('not valid');
    }
    expect((await get(key, '/apps')).status).toBe(200);
    expect((await call(w.api, 'DELETE', `/api/v1/org/api-keys/${id}`, undefined, { token: owner.token })).status).toBe(200);
    expect((await get(key, '/apps')).status).toBe(401);
  });

  test("a key reads its own organisation only: another's app is a 404, a malformed app a 400", async () => {
    const mine = await newOwner();
    const theirs = await newOwner('other');
    const theirApp = await appWith(theirs, 'apple_app_store', seeds(2));
    const { key } = await keyFor(mine);
    const apps = await get<App[]>(key, '/apps');
    expect(apps.json.data).toEqual([]);
    const foreign = await get(key, `/apps/${theirApp}/reviews`);
    expect(foreign.status).toBe(404);
    expect(foreign.json.error?.message).toContain('GET /api/v1/apps');
    const malformed = await get(key, '/apps/itunes__123/reviews');
    expect(malformed.status).toBe(400);
    expect(malformed.json.error?.message).toContain('appKey');
  });

  test('past the key\'s rate: 429 with Retry-After; the headers count down before it', async () => {
    w.setEnv({ TRUST_PROXY: '1', PUBLIC_API_RATE_PER_MINUTE: '3' });
    try {
      const { key } = await keyFor(await newOwner());
      const answers = [];
      for (let i = 0; i < 4; i++) answers.push(await get(key, '/apps'));
      expect(answers.map((a) => a.status)).toEqual([200, 200, 200, 429]);
      expect(answers.map((a) => a.headers.get('x-ratelimit-remaining'))).toEqual(['2', '1', '0', '0']);
      expect(answers[0].headers.get('x-ratelimit-limit')).toBe('3');
      const retry = Number(answers[3].headers.get('retry-after'));
      expect(retry).toBeGreaterThanOrEqual(1);
      expect(retry).toBeLessThanOrEqual(60);
      expect(answers[3].json.error).toMatchObject({ code: 'rate_limited', message: expect.stringContaining('more than 3 requests in a minute') });
      // Another key of the same organisation has its own count.
      expect((await get((await keyFor(await newOwner())).key, '/apps')).status).toBe(200);
    } finally {
      w.setEnv();
    }
  });
  test("the organisation's plan: calls are counted by month; a plan without the API gets 402 naming the plan that has it", async () => {
    const owner = await newOwner();
    const { key } = await keyFor(owner); // made on a server without billing, where every plan is unlimited
    await get(key, '/apps');
    await get(key, '/apps');
    await flushApiUsage(); // counted in memory, written every second (and at shutdown)
    const org = await call<{ usage: { api_calls: number } }>(w.api, 'GET', '/api/v1/org', undefined, { token: owner.token });
    expect(org.json.data.usage.api_calls).toBe(2);

    w.setEnv({ TRUST_PROXY: '1', PUBLIC_API_RATE_PER_MINUTE: '1000', STRIPE_SECRET_KEY: 'sk_test_public_api', STRIPE_PRICE_STARTUP: 'price_startup', STRIPE_PRICE_BUSINESS: 'price_business' });
    try {
      // The plan changes as the payment provider's news is applied in this process: the next call has the new plan,
      // although the key and the old plan were in memory.
      const setPlan = (plan: string) => applySubscription(owner.orgId, subscription(`price_${plan}`));
      await setPlan('startup');
      const refused = await get(key, '/apps');
      expect(refused.status).toBe(402);
      expect(refused.json.error).toEqual({ code: 'plan_limit', message: 'Your Startup plan does not include API calls. Upgrade to Business for unlimited API calls.' });
      await setPlan('business');
      expect((await get(key, '/apps')).status).toBe(200);
    } finally {
      w.setEnv();
    }
  });
});

describe('apps and reviews', () => {
  test('the apps, with the id the reviews call takes; the last use of the key is stamped', async () => {
    const owner = await newOwner();
    const ios = await appWith(owner, 'apple_app_store', seeds(3));
    const play = await appWith(owner, 'google_play_store', seeds(1));
    const { key } = await keyFor(owner);
    const r = await get<App[]>(key, '/apps');
    expect(r.status, r.text).toBe(200);
    expect(r.json.has_more).toBe(false);
    expect(r.json.data.map((a) => a.id).sort()).toEqual([ios, play].sort());
    const app = r.json.data.find((a) => a.id === ios)!;
    expect(app).toMatchObject({ key: ios, app_store: 'apple_app_store', app_store_slug: 'App Store', app_id: ios.split('__')[1], review_count: 3 });
    expect(r.json.data.find((a) => a.id === play)).toMatchObject({ app_store: 'google_play_store', app_store_slug: 'Google Play' });
    await flushApiUsage(); // the last use is written with the batched counts
    const keys = await call<Array<{ last_used_at: string | null }>>(w.api, 'GET', '/api/v1/org/api-keys', undefined, { token: owner.token });
    expect(keys.json.data[0].last_used_at).not.toBeNull();
  });

  test('reviews newest first in the public shape; 20 by default, limit 1 to 100', async () => {
    const owner = await newOwner();
    const app = await appWith(owner, 'apple_app_store', seeds(25, (i) => ({ rating: (i % 5) + 1, reply: i === 0 ? 'Thanks!' : undefined })));
    const { key } = await keyFor(owner);
    const r = await get(key, `/apps/${app}/reviews`);
    expect(r.status, r.text).toBe(200);
    expect(r.json.data).toHaveLength(20);
    expect(r.json.has_more).toBe(true);
    expect(r.json.data.map((x) => x.content_body)).toEqual(Array.from({ length: 20 }, (_, i) => `review ${i}`));
    for (const field of PUBLIC_FIELDS) expect(r.json.data[0], field).toHaveProperty(field);
    expect(r.json.data[0]).toMatchObject({ app_store: 'apple_app_store', content_rating: 1, reply_text: 'Thanks!', country: 'us', language: 'en' });
    expect(r.json.data[0].store_permalink).toMatch(/^https:\/\/apps\.apple\.com\//);
    expect((await get(key, `/apps/${app}/reviews?limit=100`)).json.data).toHaveLength(25);
    for (const [limit, message] of [['0', 'limit must be 1 to 100.'], ['101', 'limit must be 1 to 100.'], ['ten', 'limit must be a number.'], ['2.5', 'limit must be a whole number.']]) {
      const bad = await get(key, `/apps/${app}/reviews?limit=${limit}`);
      expect(bad.status, limit).toBe(400);
      expect(bad.json.error?.message).toBe(`limit: ${message}`);
    }
  });

  test('paging by starting_after walks every review once, in order, even when newer ones arrive meanwhile', async () => {
    const owner = await newOwner();
    const app = await appWith(owner, 'google_play_store', seeds(7));
    const { key } = await keyFor(owner);
    const seen: string[] = [];
    let after = '';
    for (let page = 0; page < 10; page++) {
      const r = await get(key, `/apps/${app}/reviews?limit=3${after ? `&starting_after=${after}` : ''}`);
      expect(r.status, r.text).toBe(200);
      seen.push(...r.json.data.map((x) => x.content_body));
      if (page === 0) await appendReviews(owner, app, 1); // a new review mid-way: not on the later pages
      if (!r.json.has_more) break;
      after = r.json.data.at(-1)!.id;
    }
    expect(seen).toEqual(Array.from({ length: 7 }, (_, i) => `review ${i}`));
    const unknown = await get(key, `/apps/${app}/reviews?starting_after=999999999999`);
    expect(unknown.status).toBe(400);
    expect(unknown.json.error?.message).toContain('has no review 999999999999');
    const notAnId = await get(key, `/apps/${app}/reviews?starting_after=abc`);
    expect(notAnId.status).toBe(400);
    expect(notAnId.json.error?.message).toContain('starting_after must be a review id');
  });

  test('from and to (unix seconds, both included), country and rating filters', async () => {
    const owner = await newOwner();
    const app = await appWith(owner, 'apple_app_store', seeds(6, (i) => ({ country: i % 2 ? 'gb' : 'us', rating: i < 3 ? 5 : 1 })));
    const { key } = await keyFor(owner);
    const all = (await get(key, `/apps/${app}/reviews`)).json.data;
    const secs = (i: number) => all[i].content_updated_at;
    const bodies = async (q: string) => {
      const r = await get(key, `/apps/${app}/reviews?${q}`);
      expect(r.status, r.text).toBe(200);
      return r.json.data.map((x) => x.content_body);
    };
    expect(await bodies(`from=${secs(2)}`)).toEqual(['review 0', 'review 1', 'review 2']);
    expect(await bodies(`to=${secs(3)}`)).toEqual(['review 3', 'review 4', 'review 5']);
    expect(await bodies(`from=${secs(4)}&to=${secs(1)}`)).toEqual(['review 1', 'review 2', 'review 3', 'review 4']);
    expect(await bodies('country=GB')).toEqual(['review 1', 'review 3', 'review 5']);
    expect(await bodies('rating=1&country=us')).toEqual(['review 4']);
    expect(await bodies('rating=4,5')).toEqual(['review 0', 'review 1', 'review 2']);
    for (const [q, message] of [
      ['from=yesterday', 'from: from must be unix seconds (a whole number, e.g. 1714550400) or an ISO 8601 date or time'],
      ['to=2026-13-01', 'to: to must be unix seconds (a whole number, e.g. 1714550400) or an ISO 8601 date or time'],
      [`from=${secs(0)}&to=${secs(5)}`, 'from: from must not be after to.'],
      ['rating=6', 'rating: "6" is not a star rating 1 to 5.'],
      ['country=usa', 'country: "usa" is not a two-letter country code.'],
    ]) {
      const bad = await get(key, `/apps/${app}/reviews?${q}`);
      expect(bad.status, q).toBe(400);
      expect(bad.json.error?.message, q).toContain(message);
    }
  });
});

test('the documentation page (/features/api) shows the answer as it really is: the same fields, the same wrapping', async () => {
  const page = fs.readFileSync(path.join(__dirname, '../../content/features/api.md'), 'utf8');
  const shown = [...page.matchAll(/```json\n([\s\S]*?)```/g)].map((m) => JSON.parse(m[1]) as { data: Review[]; has_more: boolean }).find((j) => 'has_more' in j);
  expect(shown).toBeDefined();
  const owner = await newOwner();
  const app = await appWith(owner, 'apple_app_store', seeds(2, () => ({ title: 'Sync is slow', reply: 'Thanks!' })));
  const real = (await get((await keyFor(owner)).key, `/apps/${app}/reviews?limit=1`)).json;
  expect(Object.keys(shown!).sort()).toEqual(Object.keys(real).filter((k) => k !== 'next_cursor').sort());
  expect(Object.keys(shown!.data[0]).sort()).toEqual(Object.keys(real.data[0]).sort());
  for (const [k, v] of Object.entries(real.data[0])) if (v !== null) expect(typeof shown!.data[0][k], k).toBe(typeof v);
});

/** `n` reviews of `appKey` written now (newest last), as the engine stores a poll's news. */
async function appendReviews(owner: SignedInUser, appKey: string, n: number): Promise<void> {
  const db = await getDb();
  for (let i = 0; i < n; i++) {
    await db
      .insertInto('reviews')
      .values({
        app_key: appKey,
        store: appKey.split('__')[0],
        store_review_id: `appended-${owner.orgId}-${i}`,
        country: 'us',
        language: 'en',
        author_name: 'Someone new',
        title: null,
        body: `appended ${i}`,
        rating: 4,
        app_version: '2.0',
        updated_at: new Date(Date.now() + i * 1000 + HOUR / 3600),
        reply_text: null,
        sentiment: null,
        sentiment_score: null,
        written_at: null,
        reply_updated_at: null,
        permalink: null,
      })
      .execute();
  }
}

/** An active subscription to the plan with this price, as the payment provider describes it (the fields applied). */
function subscription(priceId: string): Stripe.Subscription {
  const periodEnd = Math.floor(Date.now() / 1000) + 30 * 86_400;
  return { id: 'sub_public_api', status: 'active', customer: 'cus_public_api', items: { data: [{ price: { id: priceId }, current_period_end: periodEnd }] } } as unknown as Stripe.Subscription;
}
