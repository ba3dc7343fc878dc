// The seed product's n8n node (n8n-nodes-appreviewbot) against ARB, over real HTTP on a real database (PGlite and
// PostgreSQL): each request exactly as the node sends it — its credential test and app picker (GET /apps, the label
// `${title} (${app_store_slug})`), Review › Get Many with Return All (what n8n-core's generic pagination really sends,
// tests/api/n8nDeclarative.test.ts: `starting_after=` alone on the first page, then the last id — the pagination's
// query replaces the request's, so neither `limit` nor the Additional Fields go with it, and pages are ARB's default
// 20), with Limit, with its Additional Fields (country, rating 1…5 or "Any" = `rating=`, From/To as
// `new Date(value).toISOString()`), and its polling trigger (the first run keeps "now" as the watermark;
// each poll asks `from = watermark + 1` in unix seconds, pages by starting_after, and keeps the newest
// content_updated_at it got as the next watermark). Every answer is checked with the exact review ids.
//
// The one case the trigger's design misses, shown here and documented in docs/API.md ("Public API"): a review that
// ARB stores after a poll, dated (by the store) at or before that poll's newest second — in the same second as the
// watermark, or earlier (a storefront polled later, a store that shows it late). The API has it (Get Many returns it);
// the trigger's `from = watermark + 1` never asks for it again. Two reviews of the same second stored before the poll
// are both delivered, once, and nothing is ever delivered twice except an edit (a new content_updated_at).
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { getDb } from '@/server/db/client';
import { startApiWorld, type ApiWorld } from '../helpers/apiWorld';
import { newOwner, type SignedInUser } from '../helpers/orgs';
import { addReviews, appWith, type Seed } from '../helpers/seedReviews';
import { newApiKey } from './support/apiKeys';

const w = {} as ApiWorld;
beforeAll(async () => {
  Object.assign(w, await startApiWorld({ TRUST_PROXY: '1', PUBLIC_API_RATE_PER_MINUTE: '10000' }));
}, 60_000);
afterAll(() => w.close());

type Review = { id: string; content_updated_at: number; written_at: number | null; replied_at: number | null; content_body: string; content_rating: number; country: string | null };
type Page = { data: Review[]; has_more: boolean };
type App = { id: string; title: string; app_store: string; app_store_slug: string };

/** A whole second, an hour ago: the reviews' times are chosen from it, far from anything the clock does meanwhile. */
const T0 = Math.floor(Date.now() / 1000) - 3600;
const at = (seconds: number, ms = 0) => new Date((T0 + seconds) * 1000 + ms);

const keyFor = async (owner: SignedInUser): Promise<string> => (await newApiKey(w.api, { token: owner.token }, 'n8n')).key;

/**
 * The node's HTTP: `GET {base}/api/v1{path}` with the credential's `Authorization: Bearer <key>` and the query built
 * from an object the way n8n's request helpers build it — an undefined value left out, an empty string sent as `name=`.
 * Every query string sent is kept, to check the exact shapes.
 */
function seedNode(key: string) {
  const sent: string[] = [];
  const get = async <T>(path: string, qs: Record<string, string | undefined> = {}): Promise<{ status: number; body: T & { error?: { message: string } } }> => {
    const query = new URLSearchParams(Object.entries(qs).filter((e): e is [string, string] => e[1] !== undefined)).toString();
    sent.push(`${path}${query ? `?${query}` : ''}`);
    const res = await fetch(`${w.api.url}/api/v1${path}${query ? `?${query}` : ''}`, { headers: { Authorization: `Bearer ${key}`, Accept: 'application/json' } });
    return { status: res.status, body: (await res.json()) as T & { error?: { message: string } } };
  };
  const ok = async <T>(path: string, qs: Record<string, string | undefined> = {}): Promise<T> => {
    const r = await get<T>(path, qs);
    expect(r.status, `${sent.at(-1)}: ${JSON.stringify(r.body).slice(0, 300)}`).toBe(200);
    return r.body;
  };

  /**
   * Review › Get Many. Return All: by starting_after while has_more (and the page is not empty), nothing else on the
   * query (n8nDeclarative.test.ts: n8n's pagination replaces the query, so the filters are not sent).
   */
  const getMany = async (appId: string, o: { returnAll?: boolean; limit?: number; country?: string; rating?: string; from?: string; to?: string } = {}) => {
    const fields = {
      country: o.country,
      rating: o.rating,
      from: o.from ? new Date(o.from).toISOString() : undefined,
      to: o.to ? new Date(o.to).toISOString() : undefined,
    };
    if (!o.returnAll) return (await ok<Page>(`/apps/${appId}/reviews`, { limit: String(o.limit ?? 50), ...fields })).data.slice(0, o.limit ?? 50);
    const all: Review[] = [];
    let startingAfter = ''; // the pagination's expression before any response: `$response.body?.data?.[…]?.id ?? ""`
    for (;;) {
      const page = await ok<Page>(`/apps/${appId}/reviews`, { starting_after: startingAfter });
      all.push(...page.data);
      if (!(page.has_more === true && page.data.length > 0)) return all;
      startingAfter = page.data[page.data.length - 1].id ?? '';
    }
  };

  /** The polling trigger: its static data (the watermark) and one poll at `now` (unix seconds). */
  const trigger = (appId: string, filters: { country?: string; rating?: string } = {}) => {
    const state: { watermark?: number } = {};
    return {
      state,
      async poll(now: number, mode: 'trigger' | 'manual' = 'trigger'): Promise<Review[] | null> {
        if (mode === 'trigger' && state.watermark === undefined) {
          state.watermark = now; // first activation: no backfill
          return null;
        }
        const qs: Record<string, string | undefined> = { limit: '100' };
        if (filters.country) qs.country = filters.country;
        if (filters.rating) qs.rating = filters.rating;
        if (mode === 'manual') return (await ok<Page>(`/apps/${appId}/reviews`, { ...qs, limit: '1' })).data;
        const watermark = state.watermark!;
        qs.from = String(watermark + 1);
        const got: Review[] = [];
        for (let page = 0; page < 10; page++) {
          const body = await ok<Page>(`/apps/${appId}/reviews`, { ...qs });
          got.push(...body.data);
          if (!body.has_more || body.data.length === 0) break;
          qs.starting_after = body.data[body.data.length - 1].id;
        }
        if (got.length === 0) return null;
        state.watermark = got.reduce((m, r) => Math.max(m, r.content_updated_at ?? 0), watermark);
        return got;
      },
    };
  };
  return { sent, get, ok, getMany, trigger };
}

const ids = (reviews: Review[] | null) => (reviews ?? []).map((r) => r.id);
/** `reviews` newest first, as the API orders them (content_updated_at, then id). */
const newestFirst = (...idLists: string[][]) => idLists.flat();

describe('the app picker and the credential test', () => {
  test("GET /apps (also with the credential test's limit=1) answers each app's id, title and app_store_slug", async () => {
    const owner = await newOwner();
    const ios = await appWith(owner, 'apple_app_store', [{ body: 'one' }]);
    const play = await appWith(owner, 'google_play_store', [{ body: 'two' }]);
    const node = seedNode(await keyFor(owner));
    const test = await node.get<{ data: App[] }>('/apps', { limit: '1' });
    expect(test.status).toBe(200);
    const apps = (await node.ok<{ data: App[] }>('/apps')).data;
    const labels = Object.fromEntries(apps.map((a) => [a.id, `${a.title} (${a.app_store_slug})`]));
    expect(labels).toEqual({ [ios]: `App ${ios.split('__')[1]} (App Store)`, [play]: `App ${play.split('__')[1]} (Google Play)` });
  });
});

describe('Review › Get Many', () => {
  // 250 reviews a second apart, the newest first; every 5th is 1★, odd ones from gb.
  const seeds: Seed[] = Array.from({ length: 250 }, (_, i) => ({ body: `review ${i}`, at: at(-i, 300), rating: i % 5 === 0 ? 1 : 4, country: i % 2 ? 'gb' : 'us' }));
  const fixture = async () => {
    const owner = await newOwner();
    const app = await appWith(owner, 'apple_app_store', []);
    const all = await addReviews(app, seeds);
    return { app, all, node: seedNode(await keyFor(owner)) };
  };
  const where = (all: string[], keep: (s: Seed) => boolean) => all.filter((_, i) => keep(seeds[i]));

  test('Return All: starting_after= first, then the last id, until has_more is false: every review once, in order', async () => {
    const { app, all, node } = await fixture();
    const got = await node.getMany(app, { returnAll: true });
    expect(ids(got)).toEqual(all);
    // Pages of the API's default 20: the first with `starting_after=` (empty = absent), then each page's last id.
    expect(node.sent).toEqual(Array.from({ length: Math.ceil(all.length / 20) }, (_, p) => `/apps/${app}/reviews?starting_after=${p === 0 ? '' : all[p * 20 - 1]}`));
    // The seed's review fields, its times in unix seconds: the second the stored time falls in (x.300 → x).
    expect(got[0]).toMatchObject({ content_updated_at: T0, written_at: null, replied_at: null, content_body: 'review 0', content_rating: 1, country: 'us' });
    expect(got.every((r, i) => r.content_updated_at === T0 - i)).toBe(true);
  });

  test('Limit: that many, the newest', async () => {
    const { app, all, node } = await fixture();
    expect(ids(await node.getMany(app, { limit: 7 }))).toEqual(all.slice(0, 7));
    expect(ids(await node.getMany(app))).toEqual(all.slice(0, 50)); // the node's default limit
    expect(node.sent).toEqual([`/apps/${app}/reviews?limit=7`, `/apps/${app}/reviews?limit=50`]);
  });

  test('Additional Fields with Limit: country=us, rating=1, and "Any" rating sent as rating= (no filter)', async () => {
    const { app, all, node } = await fixture();
    expect(ids(await node.getMany(app, { limit: 100, country: 'us' }))).toEqual(where(all, (s) => s.country === 'us').slice(0, 100));
    expect(ids(await node.getMany(app, { limit: 100, rating: '1' }))).toEqual(where(all, (s) => s.rating === 1).slice(0, 100));
    expect(ids(await node.getMany(app, { limit: 100, rating: '' }))).toEqual(all.slice(0, 100));
    expect(ids(await node.getMany(app, { limit: 10, rating: '1', country: 'us' }))).toEqual(where(all, (s) => s.rating === 1 && s.country === 'us').slice(0, 10));
    expect(node.sent[0]).toBe(`/apps/${app}/reviews?limit=100&country=us`);
    expect(node.sent).toContain(`/apps/${app}/reviews?limit=100&rating=`);
  });

  test('From and To as the node sends them (ISO 8601 of the picked time): both included, at whole seconds', async () => {
    const { app, all, node } = await fixture();
    // review i is stored at T0 - i + 0.3 s and answered as T0 - i; From/To pick whole seconds, as n8n's date picker does.
    const iso = (s: number) => new Date((T0 + s) * 1000).toISOString();
    expect(ids(await node.getMany(app, { limit: 100, from: iso(-4) }))).toEqual(all.slice(0, 5));
    expect(ids(await node.getMany(app, { limit: 100, to: iso(-245) }))).toEqual(all.slice(245));
    expect(ids(await node.getMany(app, { limit: 100, from: iso(-12), to: iso(-10) }))).toEqual(all.slice(10, 13));
    expect(node.sent[0]).toBe(`/apps/${app}/reviews?limit=100&from=${encodeURIComponent(iso(-4))}`);
    // The same bounds as unix seconds, with another offset, and sent empty (= absent).
    const page = async (q: string) => {
      const r = await node.get<Page>(`/apps/${app}/reviews`, Object.fromEntries(new URLSearchParams(q)));
      expect(r.status, q).toBe(200);
      return ids(r.body.data);
    };
    expect(await page(`from=${T0 - 12}&to=${T0 - 10}`)).toEqual(all.slice(10, 13));
    const plus2 = new Date((T0 - 12) * 1000 + 2 * 3600_000).toISOString().replace('.000Z', '+02:00');
    expect(await page(`from=${encodeURIComponent(plus2)}&to=${T0 - 10}`)).toEqual(all.slice(10, 13));
    expect(await page('from=&to=&country=&rating=&starting_after=&limit=100')).toEqual(all.slice(0, 100));
    // Bad values: 400, naming the parameter and both forms.
    for (const [q, name] of [['from=yesterday', 'from'], ['to=2024-02-30', 'to'], ['from=1714550400.5', 'from']] as const) {
      const r = await node.get<Page>(`/apps/${app}/reviews`, Object.fromEntries(new URLSearchParams(q)));
      expect(r.status, q).toBe(400);
      expect(r.body.error?.message).toBe(`${name}: ${name} must be unix seconds (a whole number, e.g. 1714550400) or an ISO 8601 date or time (e.g. 2024-05-01 or 2024-05-01T00:00:00Z).`);
    }
    for (const [q, message] of [['rating=0', 'rating: "0" is not a star rating 1 to 5.'], ['country=usa', 'country: "usa" is not a two-letter country code.'], ['starting_after=abc', 'starting_after: starting_after must be a review id']]) {
      const r = await node.get<Page>(`/apps/${app}/reviews`, Object.fromEntries(new URLSearchParams(q)));
      expect(r.status, q).toBe(400);
      expect(r.body.error?.message).toContain(message);
    }
  });
});

describe('the polling trigger', () => {
  test('three polls with from = watermark + 1: what is new, once; two reviews of the watermark second; the case it misses', async () => {
    const owner = await newOwner();
    const app = await appWith(owner, 'apple_app_store', []);
    const [old1, old2, atActivation] = await addReviews(app, [
      { body: 'old, before activation', at: at(-100) },
      { body: 'old too', at: at(-50) },
      { body: 'in the activation second', at: at(0, 500) },
    ]);
    const node = seedNode(await keyFor(owner));
    const trigger = node.trigger(app);

    // Manual test: the single most recent review, whatever the watermark.
    expect(ids(await trigger.poll(T0 + 1, 'manual'))).toEqual([atActivation]);
    // Activation at T0: the watermark is T0, nothing is sent.
    expect(await trigger.poll(T0)).toBeNull();
    expect(trigger.state.watermark).toBe(T0);

    // Stored before poll 1: one review, and two in one second (T0+20.000 and T0+20.900).
    const [r1, r2, r3] = await addReviews(app, [
      { body: 'r1', at: at(10, 200) },
      { body: 'r2 (same second as r3)', at: at(20, 0) },
      { body: 'r3 (same second as r2)', at: at(20, 900) },
    ]);
    node.sent.length = 0;
    const poll1 = await trigger.poll(T0 + 25);
    expect(node.sent).toEqual([`/apps/${app}/reviews?limit=100&from=${T0 + 1}`]);
    expect(ids(poll1)).toEqual(newestFirst([r3, r2, r1])); // the activation second's review is not new: from = T0 + 1
    expect(poll1!.map((r) => r.content_updated_at)).toEqual([T0 + 20, T0 + 20, T0 + 10]);
    expect(trigger.state.watermark).toBe(T0 + 20);

    // Stored between poll 1 and poll 2: the next second right after the watermark, a later one, an edit of r1 — and
    // two the design cannot see: dated in the watermark second (T0+20.500) and before it (T0+15), stored late.
    const [r4, r5, lateSameSecond, lateEarlier] = await addReviews(app, [
      { body: 'r4 (the second after the watermark)', at: at(21, 0) },
      { body: 'r5', at: at(30, 400) },
      { body: 'stored late, in the watermark second', at: at(20, 500) },
      { body: 'stored late, dated before the watermark', at: at(15) },
    ]);
    await editReview(r1, at(31, 100), 'r1, edited');
    node.sent.length = 0;
    const poll2 = await trigger.poll(T0 + 40);
    expect(node.sent).toEqual([`/apps/${app}/reviews?limit=100&from=${T0 + 21}`]);
    expect(ids(poll2)).toEqual(newestFirst([r1, r5, r4])); // r1 again: it was edited (a new content_updated_at)
    expect(poll2![0]).toMatchObject({ content_body: 'r1, edited', content_updated_at: T0 + 31 });
    expect(trigger.state.watermark).toBe(T0 + 31);
    // The API has both late reviews (Get Many shows them); the trigger never asks for them again: the documented miss.
    const inApi = ids(await node.getMany(app, { returnAll: true }));
    expect(inApi).toEqual(newestFirst([r1, r5, r4, r3, lateSameSecond, r2, lateEarlier, atActivation, old2, old1]));

    // Stored between poll 2 and poll 3: 150 reviews from T0+32 on, eight a second (two pages of the trigger).
    const burst = await addReviews(app, Array.from({ length: 150 }, (_, i) => ({ body: `burst ${i}`, at: at(32 + Math.floor(i / 8), (i % 8) * 100) })));
    node.sent.length = 0;
    const poll3 = await trigger.poll(T0 + 80);
    const newestOfBurst = [...burst].reverse(); // ascending times and ids: the newest is the last stored
    expect(ids(poll3)).toEqual(newestOfBurst);
    expect(node.sent).toEqual([`/apps/${app}/reviews?limit=100&from=${T0 + 32}`, `/apps/${app}/reviews?limit=100&from=${T0 + 32}&starting_after=${newestOfBurst[99]}`]);
    expect(trigger.state.watermark).toBe(T0 + 32 + Math.floor(149 / 8));

    // Nothing new: no items, the watermark stays. Over the four polls no review came twice, except the edited one.
    expect(await trigger.poll(T0 + 120)).toBeNull();
    expect(trigger.state.watermark).toBe(T0 + 50);
    const delivered = [...ids(poll1), ...ids(poll2), ...ids(poll3)];
    expect(delivered.length - new Set(delivered).size).toBe(1);
    expect(delivered.filter((id) => id === r1)).toHaveLength(2);
    expect(delivered).not.toContain(lateSameSecond);
    expect(delivered).not.toContain(lateEarlier);
  });

  test("the trigger's filters: country and rating go with every poll; Any (empty) sends no rating", async () => {
    const owner = await newOwner();
    const app = await appWith(owner, 'google_play_store', []);
    const node = seedNode(await keyFor(owner));
    const oneStarUs = node.trigger(app, { country: 'us', rating: '1' });
    const any = node.trigger(app, { rating: '' });
    await oneStarUs.poll(T0);
    await any.poll(T0);
    const [a, , c, d] = await addReviews(app, [
      { body: 'a', at: at(5), rating: 1, country: 'us' },
      { body: 'b', at: at(6), rating: 1, country: 'gb' },
      { body: 'c', at: at(7), rating: 5, country: 'us' },
      { body: 'd', at: at(8), rating: 1, country: 'us' },
    ]);
    node.sent.length = 0;
    expect(ids(await oneStarUs.poll(T0 + 10))).toEqual([d, a]);
    expect(ids(await any.poll(T0 + 10))).toHaveLength(4);
    expect(node.sent).toEqual([`/apps/${app}/reviews?limit=100&country=us&rating=1&from=${T0 + 1}`, `/apps/${app}/reviews?limit=100&from=${T0 + 1}`]);
    expect(oneStarUs.state.watermark).toBe(T0 + 8);
    expect(ids(await node.getMany(app, { limit: 100, rating: '5' }))).toEqual([c]);
  });
});

/** The reviewer changed the review: new text, a new content_updated_at, one more version (as ingest records an edit). */
async function editReview(id: string, updatedAt: Date, body: string): Promise<void> {
  const db = await getDb();
  await db.updateTable('reviews').set((eb) => ({ body, updated_at: updatedAt, version: eb('version', '+', 1) })).where('id', '=', Number(id)).execute();
}
