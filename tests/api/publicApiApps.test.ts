// GET v1/apps made cheap and kept right, on PGlite and PostgreSQL: review counts and ratings come from the counters the
// reviews' triggers keep (no counting per call) and stay equal to a real count through inserts, batch inserts, edits
// and deletions; the answer carries an ETag, so an unchanged list is a 304 with no body and a changed one is not; a
// warm call reads nothing from the database, and one statement reserves hits of the key's rate. This file reads the
// database on every call (PUBLIC_API_CACHE_MS=0: the counters are what is checked) except where a test says otherwise.
import { sql, type KyselyPlugin } from 'kysely';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { getDb, getDbHandle, setDbForTests } from '@/server/db/client';
import { reserveKeyCalls } from '@/server/apiKeys/data';
import { flushApiUsage } from '@/server/apiKeys/callCounts';
import { startApiWorld, type ApiWorld } from '../helpers/apiWorld';
import { call } from '../helpers/request';
import { newOwner, type SignedInUser } from '../helpers/orgs';
import { appWith } from '../helpers/seedReviews';
import { newApiKey } from './support/apiKeys';

const w = {} as ApiWorld;
beforeAll(async () => {
  Object.assign(w, await startApiWorld({ TRUST_PROXY: '1', PUBLIC_API_RATE_PER_MINUTE: '1000', PUBLIC_API_CACHE_MS: '0' }));
}, 60_000);
afterAll(() => w.close());

type App = { id: string; review_count: number; rating: number | null; reviews_this_week: number };

const keyFor = async (owner: SignedInUser): Promise<string> => (await newApiKey(w.api, { token: owner.token }, 'bench')).key;

const apps = (key: string, headers: Record<string, string> = {}) =>
  fetch(`${w.api.url}/api/v1/apps`, { headers: { authorization: `Bearer ${key}`, ...headers } });

/** What counting the rows says, to hold the counters to. */
async function truth(appKey: string): Promise<{ n: number; avg: number | null }> {
  const r = await sql<{ n: number; avg: number | null }>`select count(*)::int as n, round(avg(rating)::numeric, 2)::float8 as avg from reviews where app_key = ${appKey}`.execute(await getDb());
  return r.rows[0];
}

async function listed(key: string, appKey: string): Promise<App> {
  const r = await apps(key);
  expect(r.status).toBe(200);
  return ((await r.json()) as { data: App[] }).data.find((a) => a.id === appKey)!;
}

describe('review counts from counters', () => {
  test('stay equal to a real count through inserts, a batch insert, edits and deletions', async () => {
    const owner = await newOwner();
    const appKey = await appWith(owner, 'apple_app_store', [
      { body: 'one', rating: 5, hoursAgo: 1 },
      { body: 'two', rating: 1, hoursAgo: 2 },
    ]);
    const key = await keyFor(owner);
    const check = async () => {
      const t = await truth(appKey);
      const app = await listed(key, appKey);
      expect(app.review_count).toBe(t.n);
      expect(app.rating).toBe(t.avg);
    };
    await check();
    expect((await listed(key, appKey)).review_count).toBe(2);

    const db = await getDb();
    const row = (i: number, rating: number) => ({
      app_key: appKey, store: 'apple_app_store', store_review_id: `batch-${appKey}-${i}`, country: 'us', language: 'en', author_name: 'A',
      title: null, body: `batch ${i}`, rating, app_version: '1.0', updated_at: new Date(), reply_text: null, sentiment: null,
      sentiment_score: null, written_at: null, reply_updated_at: null, permalink: null,
    });
    await db.insertInto('reviews').values([row(1, 4), row(2, 3), row(3, 2)]).execute();
    await check();
    expect((await listed(key, appKey)).review_count).toBe(5);

    // An edit changes the rating (the engine's upsert of an edited review is an UPDATE).
    await db.updateTable('reviews').set({ rating: 5 }).where('app_key', '=', appKey).where('body', '=', 'two').execute();
    await check();
    // An upsert that inserts one and updates another in one statement.
    await db
      .insertInto('reviews')
      .values([row(3, 1), row(4, 5)])
      .onConflict((oc) => oc.columns(['store', 'store_review_id']).doUpdateSet((eb) => ({ rating: eb.ref('excluded.rating') })))
      .execute();
    await check();
    await db.deleteFrom('reviews').where('app_key', '=', appKey).where('body', 'like', 'batch%').execute();
    await check();
    expect((await listed(key, appKey)).review_count).toBe(2);
  });

  test('an app without reviews has 0 and no rating; deleting an app deletes its reviews without failing', async () => {
    const owner = await newOwner();
    const empty = await appWith(owner, 'google_play_store', []);
    const key = await keyFor(owner);
    expect(await listed(key, empty)).toMatchObject({ review_count: 0, rating: null, reviews_this_week: 0 });
    const gone = await appWith(owner, 'apple_app_store', [{ body: 'x', hoursAgo: 1 }]);
    const db = await getDb();
    await db.deleteFrom('org_apps').where('app_key', '=', gone).execute();
    await db.deleteFrom('apps').where('key', '=', gone).execute(); // reviews go by cascade; the counter follows
    const r = await sql<{ review_count: string }>`select review_count from app_review_stats where app_key = ${gone}`.execute(db);
    expect(Number(r.rows[0]?.review_count ?? 0)).toBe(0);
  });
});

describe('ETag', () => {
  test('an unchanged list is a 304 with no body; a new review changes the ETag', async () => {
    const owner = await newOwner();
    const appKey = await appWith(owner, 'apple_app_store', [{ body: 'first', hoursAgo: 1 }]);
    const key = await keyFor(owner);
    const first = await apps(key);
    const etag = first.headers.get('etag')!;
    expect(etag).toMatch(/^"[A-Za-z0-9_-]+"$/);
    expect(first.headers.get('cache-control')).toBe('private, no-cache');
    const again = await apps(key, { 'if-none-match': etag });
    expect(again.status).toBe(304);
    expect(await again.text()).toBe('');
    expect(again.headers.get('etag')).toBe(etag);
    // Still counted against the rate: a 304 is a call.
    expect(Number(again.headers.get('x-ratelimit-remaining'))).toBe(Number(first.headers.get('x-ratelimit-remaining')) - 1);

    await (await getDb())
      .insertInto('reviews')
      .values({ app_key: appKey, store: 'apple_app_store', store_review_id: `etag-${appKey}`, country: 'us', language: 'en', author_name: 'B', title: null, body: 'second', rating: 2, app_version: '1.0', updated_at: new Date(), reply_text: null, sentiment: null, sentiment_score: null, written_at: null, reply_updated_at: null, permalink: null })
      .execute();
    const changed = await apps(key, { 'if-none-match': etag });
    expect(changed.status).toBe(200);
    expect(changed.headers.get('etag')).not.toBe(etag);
    expect(((await changed.json()) as { data: App[] }).data[0].review_count).toBe(2);
  });
});

describe('a warm call reads nothing', () => {
  test('GET v1/apps sends no statement once the key, its plan, its rate and the list are in memory; the counts come after', async () => {
    w.setEnv({ TRUST_PROXY: '1', PUBLIC_API_RATE_PER_MINUTE: '1000', PUBLIC_API_CACHE_MS: '60000' });
    try {
      const owner = await newOwner();
      await appWith(owner, 'apple_app_store', [{ body: 'one', hoursAgo: 1 }]);
      const key = await keyFor(owner);
      // Cold: the key, the organisation, a rate reservation, the list. Then the rate's reservations grow: 1, 1, 2, 4 hits
      // for the first 7 calls hold 8, so the next call spends the last one from memory.
      for (let i = 0; i < 7; i++) expect((await apps(key)).status).toBe(200);
      await flushApiUsage();
      let statements = 0;
      const counter: KyselyPlugin = {
        transformQuery: (args) => {
          statements++;
          return args.node;
        },
        transformResult: async (args) => args.result,
      };
      const handle = await getDbHandle();
      setDbForTests({ ...handle, db: handle.db.withPlugin(counter) });
      try {
        expect((await apps(key)).status).toBe(200);
      } finally {
        setDbForTests(handle);
      }
      // Before: the key with its plan, the rate with the month's count, and the list — 3 per call.
      expect(statements).toBe(0);
      await flushApiUsage();
      const org = await call<{ usage: { api_calls: number } }>(w.api, 'GET', '/api/v1/org', undefined, { token: owner.token });
      expect(org.json.data.usage.api_calls).toBe(8);
    } finally {
      w.setEnv();
    }
  });

  test("a reservation adds to the key's window and says what it holds; a new window starts from what is asked", async () => {
    const owner = await newOwner();
    const now = new Date();
    const q = { rateKey: `public-api:key:test-${owner.orgId}`, want: 1, windowSeconds: 60, now };
    const first = await reserveKeyCalls(q);
    expect(first.count).toBe(1);
    expect(first.windowEndsAt.getTime()).toBe(now.getTime() + 60_000);
    expect(await reserveKeyCalls({ ...q, want: 5 })).toMatchObject({ count: 6, windowEndsAt: first.windowEndsAt });
    // Past the end of the window: a new one, counting only this reservation.
    const later = new Date(now.getTime() + 61_000);
    const next = await reserveKeyCalls({ ...q, want: 3, now: later });
    expect(next).toEqual({ count: 3, windowEndsAt: new Date(later.getTime() + 60_000) });
  });
});
