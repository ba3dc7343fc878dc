// The public API answers from memory when warm (server/apiKeys/keyState.ts, callCounts.ts, server/publicApi/appsCache.ts),
// and stays right, on PGlite and PostgreSQL: a key revoked, an app removed or a plan changed through this process
// takes effect at the next call although they were in memory; the same written by another process (straight into the
// database, as that process's writes are) takes effect within PUBLIC_API_CACHE_MS; counted calls are written in
// batches and none is lost, not even when a write fails.
import type { KyselyPlugin } from 'kysely';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { getDb, getDbHandle, setDbForTests } from '@/server/db/client';
import { revokeApiKey } from '@/server/apiKeys/data';
import { flushApiUsage } from '@/server/apiKeys/callCounts';
import { startApiWorld, type ApiWorld } from '../helpers/apiWorld';
import { call } from '../helpers/request';
import { newOwner, type SignedInUser } from '../helpers/orgs';
import { appWith } from '../helpers/seedReviews';
import { newApiKey } from './support/apiKeys';

/** Long enough that nothing in a test expires by itself, unless the test sets a short one. */
const ENV = { TRUST_PROXY: '1', PUBLIC_API_RATE_PER_MINUTE: '1000', PUBLIC_API_CACHE_MS: '60000' };
const w = {} as ApiWorld;
beforeAll(async () => {
  Object.assign(w, await startApiWorld(ENV));
}, 60_000);
afterAll(() => w.close());

const keyFor = (owner: SignedInUser) => newApiKey(w.api, { token: owner.token }, 'script');

const apps = (key: string) => call<Array<{ id: string }>>(w.api, 'GET', '/api/v1/apps', undefined, { token: key });
const usage = async (owner: SignedInUser) => (await call<{ usage: { api_calls: number } }>(w.api, 'GET', '/api/v1/org', undefined, { token: owner.token })).json.data.usage.api_calls;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('changes made through this process: at the next call', () => {
  test('a revoked key is refused at once, although it was in memory', async () => {
    const owner = await newOwner();
    const { key, id } = await keyFor(owner);
    for (let i = 0; i < 3; i++) expect((await apps(key)).status).toBe(200);
    expect((await call(w.api, 'DELETE', `/api/v1/org/api-keys/${id}`, undefined, { token: owner.token })).status).toBe(200);
    const refused = await apps(key);
    expect(refused.status).toBe(401);
    expect(refused.json.error?.message).toContain('not valid');
  });

  test("a deleted organisation's key is refused at once, although it was in memory", async () => {
    const owner = await newOwner();
    const { key } = await keyFor(owner);
    expect((await apps(key)).status).toBe(200);
    const org = await call<{ name: string }>(w.api, 'GET', '/api/v1/org', undefined, { token: owner.token });
    const del = await call(w.api, 'DELETE', '/api/v1/org', { confirm: org.json.data.name }, { token: owner.token });
    expect(del.status, del.text).toBe(200);
    expect((await apps(key)).status).toBe(401);
  });

  test('an app removed from the organisation leaves the list at once, although the list was in memory', async () => {
    const owner = await newOwner();
    const kept = await appWith(owner, 'apple_app_store', [{ body: 'a', hoursAgo: 1 }]);
    const removed = await appWith(owner, 'google_play_store', [{ body: 'b', hoursAgo: 1 }]);
    const { key } = await keyFor(owner);
    expect((await apps(key)).json.data.map((a) => a.id).sort()).toEqual([kept, removed].sort());
    const del = await call(w.api, 'DELETE', `/api/v1/org/apps/${removed}`, undefined, { token: owner.token });
    expect(del.status, del.text).toBe(200);
    expect((await apps(key)).json.data.map((a) => a.id)).toEqual([kept]);
  });
});

describe('changes made by another process: within PUBLIC_API_CACHE_MS', () => {
  const TTL = 400;

  test('a key revoked elsewhere is refused once what this process read of it expires', async () => {
    w.setEnv({ ...ENV, PUBLIC_API_CACHE_MS: String(TTL) });
    try {
      const owner = await newOwner();
      const { key, id } = await keyFor(owner);
      expect((await apps(key)).status).toBe(200);
      // What another process's revocation writes: the row only (that process forgets the key in its own memory).
      expect(await revokeApiKey(owner.orgId, id)).toBeDefined();
      await sleep(TTL + 50);
      expect((await apps(key)).status).toBe(401);
    } finally {
      w.setEnv();
    }
  });

  test('a plan without the API, set elsewhere, is refused (402) once the plan this process read expires', async () => {
    w.setEnv({ ...ENV, PUBLIC_API_CACHE_MS: String(TTL), STRIPE_SECRET_KEY: 'sk_test_public_api_cache' });
    try {
      const owner = await newOwner();
      const db = await getDb();
      await db.updateTable('orgs').set({ plan: 'business', plan_status: 'active' }).where('id', '=', owner.orgId).execute();
      const { key } = await keyFor(owner);
      expect((await apps(key)).status).toBe(200);
      await db.updateTable('orgs').set({ plan: 'startup' }).where('id', '=', owner.orgId).execute();
      await sleep(TTL + 50);
      const refused = await apps(key);
      expect(refused.status).toBe(402);
      expect(refused.json.error?.code).toBe('plan_limit');
    } finally {
      w.setEnv();
    }
  });
});

describe('counted calls: written in batches, none lost', () => {
  test('every call is in the month once written, and a write that fails keeps its counts for the next', async () => {
    const owner = await newOwner();
    const { key } = await keyFor(owner);
    for (let i = 0; i < 5; i++) expect((await apps(key)).status).toBe(200);
    await flushApiUsage();
    expect(await usage(owner)).toBe(5);

    for (let i = 0; i < 3; i++) expect((await apps(key)).status).toBe(200);
    // The database refuses the next write of the counts (an outage): nothing is written, nothing is dropped.
    const failing: KyselyPlugin = {
      transformQuery: (args) => {
        throw new Error(`database unavailable (${args.node.kind})`);
      },
      transformResult: async (args) => args.result,
    };
    const handle = await getDbHandle();
    setDbForTests({ ...handle, db: handle.db.withPlugin(failing) });
    try {
      await flushApiUsage();
    } finally {
      setDbForTests(handle);
    }
    expect(await usage(owner)).toBe(5);
    expect((await apps(key)).status).toBe(200);
    await flushApiUsage();
    expect(await usage(owner)).toBe(9);
  });

  test("the key's last use is written with the counts, at most once a minute", async () => {
    const owner = await newOwner();
    const { key } = await keyFor(owner);
    const lastUsed = async () => (await call<Array<{ last_used_at: string | null }>>(w.api, 'GET', '/api/v1/org/api-keys', undefined, { token: owner.token })).json.data[0].last_used_at;
    expect(await lastUsed()).toBeNull();
    expect((await apps(key)).status).toBe(200);
    await flushApiUsage();
    const first = await lastUsed();
    expect(first).not.toBeNull();
    expect((await apps(key)).status).toBe(200);
    await flushApiUsage();
    expect(await lastUsed()).toBe(first);
  });
});
