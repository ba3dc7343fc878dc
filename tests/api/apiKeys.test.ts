// API keys through the real routes and a real database (PGlite: HTTP behaviour, vitest.config.ts): an admin creates a key, which is in
// that answer only and stored as a hash; the list shows its prefix and last use; verifyApiKey (what the public API
// calls) accepts it; revoking stops it at once, although it was in memory. Members read the list;
// nobody sees or revokes another organisation's keys.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { getDb } from '@/server/db/client';
import { MAX_ACTIVE_KEYS, verifyApiKey } from '@/server/apiKeys/service';
import { startApiWorld, type ApiWorld } from '../helpers/apiWorld';
import { call } from '../helpers/request';
import { memberOf, newOwner, type SignedInUser } from '../helpers/orgs';

const w = {} as ApiWorld;
beforeAll(async () => {
  Object.assign(w, await startApiWorld({ TRUST_PROXY: '1' }));
}, 60_000);
afterAll(() => w.close());

type Key = { id: string; name: string; prefix: string; created_at: string; last_used_at: string | null };

let n = 0;
const ip = () => `198.18.7.${(++n % 250) + 1}`;
const list = (u: SignedInUser) => call<Key[]>(w.api, 'GET', '/api/v1/org/api-keys', undefined, { token: u.token, ip: ip() });
const create = (u: SignedInUser | null, body: unknown) => call<Key & { key: string }>(w.api, 'POST', '/api/v1/org/api-keys', body, { ip: ip(), ...(u ? { token: u.token } : {}) });
const revoke = (u: SignedInUser | null, id: string) => call(w.api, 'DELETE', `/api/v1/org/api-keys/${id}`, undefined, { ip: ip(), ...(u ? { token: u.token } : {}) });

describe('API keys', () => {
  test('created with a name, shown once, stored only as a hash, listed with its prefix', async () => {
    const owner = await newOwner();
    const r = await create(owner, { name: '  Zapier  ' });
    expect(r.status, r.text).toBe(201);
    const { key, id } = r.json.data;
    expect(key).toMatch(/^arb_[0-9A-Za-z]{40}$/);
    expect(r.json.data).toMatchObject({ name: 'Zapier', prefix: key.slice(0, 10) });

    const listed = await list(owner);
    expect(listed.status).toBe(200);
    expect(listed.json.data).toEqual([{ id, name: 'Zapier', prefix: key.slice(0, 10), created_at: expect.any(String), created_by: owner.email, last_used_at: null }]);
    expect(listed.text).not.toContain(key);

    const row = await (await getDb()).selectFrom('api_keys').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
    expect(JSON.stringify(row)).not.toContain(key.slice(10));
    expect(row.key_hash).not.toBe(key);
  });

  test('verifyApiKey accepts a working key and refuses revoked or made-up keys', async () => {
    const owner = await newOwner();
    const { key, id } = (await create(owner, { name: 'CI' })).json.data;
    expect(await verifyApiKey(key)).toMatchObject({ keyId: id, orgId: owner.orgId });
    // Its use is stamped by the public API's batched writes (tests/api/publicApiCache.test.ts), not by checking it.
    expect((await list(owner)).json.data[0].last_used_at).toBeNull();

    expect(await verifyApiKey(`${key.slice(0, -1)}${key.endsWith('A') ? 'B' : 'A'}`)).toBeNull();
    expect(await verifyApiKey('arb_short')).toBeNull();
    expect(await verifyApiKey('')).toBeNull();

    const r = await revoke(owner, id);
    expect(r.status, r.text).toBe(200);
    expect(await verifyApiKey(key)).toBeNull();
    expect((await list(owner)).json.data).toEqual([]);
    expect((await revoke(owner, id)).status).toBe(404);
  });

  test('every change is in the audit log', async () => {
    const owner = await newOwner();
    const { id } = (await create(owner, { name: 'Reporting' })).json.data;
    await revoke(owner, id);
    const log = await call<{ action: string; target: string }[]>(w.api, 'GET', '/api/v1/org/audit-log', undefined, { token: owner.token, ip: ip() });
    expect(log.json.data.slice(0, 2).map((e) => [e.action, e.target])).toEqual([
      ['api_key.revoked', 'Reporting'],
      ['api_key.created', 'Reporting'],
    ]);
  });

  test('bad input is a 400 in words', async () => {
    const owner = await newOwner();
    for (const [body, words] of [
      [{ name: '   ' }, /Give the key a name/],
      [{ name: 'x'.repeat(101) }, /at most 100 characters/],
      [{ name: 'a\u0007b' }, /control characters/],
      [{}, /name/],
    ] as const) {
      const r = await create(owner, body);
      expect(r.status).toBe(400);
      expect(r.json.error.message).toMatch(words);
    }
    const bad = await revoke(owner, 'nope');
    expect(bad.status).toBe(400);
    expect(bad.json.error.message).toMatch(/not an API key id/);
  });

  test(`an organisation holds at most ${MAX_ACTIVE_KEYS} keys at once`, async () => {
    const owner = await newOwner();
    for (let i = 0; i < MAX_ACTIVE_KEYS; i++) expect((await create(owner, { name: `k${i}` })).status).toBe(201);
    const r = await create(owner, { name: 'one more' });
    expect(r.status).toBe(409);
    expect(r.json.error.message).toMatch(/Revoke one you no longer use first/);
  });
});

describe('who may do what', () => {
  test('members read the list but cannot create or revoke (403); without a session 401', async () => {
    const owner = await newOwner();
    const { id } = (await create(owner, { name: 'Owner key' })).json.data;
    const member = await memberOf(owner, 'member');
    expect((await list(member)).json.data.map((k) => k.id)).toEqual([id]);
    const made = await create(member, { name: 'Mine' });
    expect(made.status).toBe(403);
    expect(made.json.error.message).toMatch(/Only an admin or the owner of this organisation can create API keys/);
    const revoked = await revoke(member, id);
    expect(revoked.status).toBe(403);
    expect(revoked.json.error.message).toMatch(/revoke API keys/);

    const admin = await memberOf(owner, 'admin');
    expect((await create(admin, { name: 'Admin key' })).status).toBe(201);

    expect((await call(w.api, 'GET', '/api/v1/org/api-keys', undefined, { ip: ip() })).status).toBe(401);
    expect((await create(null, { name: 'x' })).status).toBe(401);
    expect((await revoke(null, id)).status).toBe(401);
  });

  test("another organisation's keys are neither listed nor revocable (404), and keep working", async () => {
    const a = await newOwner('alpha');
    const b = await newOwner('beta');
    const { id, key } = (await create(a, { name: 'A key' })).json.data;
    expect((await list(b)).json.data).toEqual([]);
    const r = await revoke(b, id);
    expect(r.status).toBe(404);
    expect(r.json.error.message).toMatch(/no API key with this id/);
    expect(await verifyApiKey(key)).toMatchObject({ keyId: id, orgId: a.orgId });
  });
});
