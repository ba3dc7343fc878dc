// GET /api/v1/reviews/{id}, the public API's one review, through the real route on a real database with real `arb_`
// keys: the review as the reviews list answers it (times in unix seconds), another organisation's review and an
// unknown id a 404, a malformed id a 400 naming it, no key a 401, and the route in the OpenAPI document.
import { afterAll, beforeAll, expect, test } from 'vitest';
import { getDb } from '@/server/db/client';
import { startApiWorld, type ApiWorld } from '../helpers/apiWorld';
import { call } from '../helpers/request';
import { newOwner, type SignedInUser } from '../helpers/orgs';
import { appWith } from '../helpers/seedReviews';
import { newApiKey } from './support/apiKeys';

const w = {} as ApiWorld;
beforeAll(async () => {
  Object.assign(w, await startApiWorld({ TRUST_PROXY: '1', PUBLIC_API_RATE_PER_MINUTE: '1000' }));
}, 60_000);
afterAll(() => w.close());

const keyFor = async (owner: SignedInUser): Promise<string> => (await newApiKey(w.api, { token: owner.token }, 'script')).key;
const get = <D>(key: string | null, path: string) => call<D>(w.api, 'GET', `/api/v1${path}`, undefined, key ? { token: key } : {});

test("one review by id, as the app's reviews list answers it; another organisation's, unknown, malformed and keyless refused", async () => {
  const owner = await newOwner();
  const app = await appWith(owner, 'apple_app_store', [{ body: 'newest', hoursAgo: 1, reply: 'Thanks!' }, { body: 'older', hoursAgo: 2, title: 'Hm' }]);
  const key = await keyFor(owner);
  const listed = (await get<Array<Record<string, unknown>>>(key, `/apps/${app}/reviews`)).json.data;
  for (const review of listed) {
    const one = await get<Record<string, unknown>>(key, `/reviews/${String(review.id)}`);
    expect(one.status, one.text).toBe(200);
    expect(one.json.data).toEqual(review);
    expect(typeof one.json.data.content_updated_at).toBe('number');
  }

  const theirs = await appWith(await newOwner('other'), 'apple_app_store', [{ body: 'not yours' }]);
  const theirId = (await (await getDb()).selectFrom('reviews').select('id').where('app_key', '=', theirs).executeTakeFirstOrThrow()).id;
  const foreign = await get(key, `/reviews/${theirId}`);
  expect(foreign.status).toBe(404);
  expect(foreign.json.error?.message).toContain("is not a review of this API key's organisation");
  expect((await get(key, '/reviews/999999999999')).status).toBe(404);
  const malformed = await get(key, '/reviews/abc');
  expect(malformed.status).toBe(400);
  expect(malformed.json.error?.message).toContain('id');
  expect((await get(null, `/reviews/${String(listed[0].id)}`)).status).toBe(401);

  const doc = JSON.parse((await call<never>(w.api, 'GET', '/api/openapi.json')).text) as { paths: Record<string, Record<string, unknown>> };
  expect(doc.paths['/api/v1/reviews/{id}']?.get).toBeDefined();
});
