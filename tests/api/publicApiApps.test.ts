// GET v1/apps made cheap and kept right, on PGlite and PostgreSQL: review counts and ratings come from the counters the
// reviews' triggers keep (no counting per call) and stay equal to a real count through inserts, batch inserts, edits
// and deletions; the answer carries an ETag, so an unchanged list is a 304 with no body and a changed one is not; one
// statement counts the key's rate and the organisation's month of calls.
import { sql, type KyselyPlugin } from 'kysely';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { getDb, getDbHandle, setDbForTests } from '@/server/db/client';
import { countKeyCall } from '@/server/apiKeys/data';
import { startApiWorld, type ApiWorld } from '../helpers/apiWorld';
import { call } from '../helpers/request';
import { newOwner, type SignedInUser } from '../helpers/orgs';
import { appWith } from '../helpers/seedReviews';

const w = {} as ApiWorld;
beforeAll(async () => {
  Object.assign(w, await startApiWorld({ TRUST_PROXY: '1', PUBLIC_API_RATE_PER_MINUTE: '1000' }));
}, 60_000);
afterAll(() => w.close());

type App = { id: string; review_count: number; rating: number | null; reviews_this_week: number };

async function keyFor(owner: SignedInUser): Promise<string> {
  const r = await call<{ key: string }>(w.api, 'POST', '/api/v1/org/api-keys', { name: 'bench' }, { token: owner.token });
  expect(r.status, r.text).toBe(201);
  return r.json.data.key;
}

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

describe('the rate and the month in one statement', () => {
  test('a call of GET v1/apps sends 3 statements: the key with its plan, the rate with the month, the list', async () => {
    const owner = await newOwner();
    await appWith(owner, 'apple_app_store', [{ body: 'one', hoursAgo: 1 }]);
    const key = await keyFor(owner);
    expect((await apps(key)).status).toBe(200); // the first use also stamps last_used_at (once a minute)
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
    // Before: the key, the rate, the plan, the month's count and the list, each on its own — 5.
    expect(statements).toBe(3);
  });

  test('counts the call in both, and a refused hit only in the rate', async () => {
    const owner = await newOwner();
    const now = new Date();
    const q = { rateKey: `public-api:key:test-${owner.orgId}`, limit: 2, windowSeconds: 60, orgId: owner.orgId, month: now.toISOString().slice(0, 7), countUsage: true, now };
    expect(await countKeyCall(q)).toMatchObject({ count: 1, apiCalls: 1 });
    expect(await countKeyCall(q)).toMatchObject({ count: 2, apiCalls: 2 });
    expect(await countKeyCall(q)).toMatchObject({ count: 3, apiCalls: null }); // past the rate: not a call
    expect(await countKeyCall({ ...q, rateKey: `${q.rateKey}-b`, countUsage: false })).toMatchObject({ count: 1, apiCalls: null }); // plan without the API
    // A new window starts at 1.
    expect(await countKeyCall({ ...q, now: new Date(now.getTime() + 61_000) })).toMatchObject({ count: 1, apiCalls: 3 });
  });
});
