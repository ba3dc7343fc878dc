// Organisation and user ids are written to the log at debug level only (docs/SECURITY.md, Logs): flows that log at
// info and warn — an API key made and revoked, a destination-less organisation deleted by its owner, a path naming a
// member — are driven through the real routes with LOG_LEVEL=info, and no org_/usr_ id may appear in what the process
// wrote. At debug the same deletion names them, so the ids are still there for an operator who asks.
import { afterAll, afterEach, beforeAll, expect, test, vi } from 'vitest';
import { newOwner, type SignedInUser } from '../helpers/orgs';
import { call } from '../helpers/request';
import { startApiWorld, type ApiWorld } from '../helpers/apiWorld';
import { captureLogs } from '../helpers/captureLogs';

let w: ApiWorld;
beforeAll(async () => {
  w = await startApiWorld({ TRUST_PROXY: '1' });
});
afterEach(() => w.setEnv());
afterAll(async () => {
  await w.close();
});


const IDS = /\b(org|usr)_[A-Za-z0-9]{4,}/;
const as = (u: SignedInUser) => ({ token: u.token, ip: '203.0.113.40' });

async function keyAndDeletion(owner: SignedInUser) {
  const key = await call<{ id: string }>(w.api, 'POST', '/api/v1/org/api-keys', { name: 'CI export' }, as(owner));
  expect(key.status, key.text).toBe(201);
  expect((await call(w.api, 'DELETE', `/api/v1/org/api-keys/${key.json.data.id}`, undefined, as(owner))).status).toBeLessThan(300);
  expect((await call(w.api, 'DELETE', `/api/v1/org/members/${owner.userId}x`, undefined, as(owner))).status).toBeGreaterThanOrEqual(400);
  const org = await call<{ name: string }>(w.api, 'GET', '/api/v1/org', undefined, as(owner));
  const deleted = await call(w.api, 'DELETE', '/api/v1/org', { confirm: org.json.data.name }, as(owner));
  expect(deleted.status, deleted.text).toBe(200);
}

test('at info level no org_ or usr_ id reaches the log, though the flows log', async () => {
  w.setEnv({ LOG_LEVEL: 'info' });
  const owner = await newOwner('logs');
  const logs = captureLogs();
  await keyAndDeletion(owner);
  vi.restoreAllMocks();
  const lines = logs();
  expect(lines.map((l) => l.msg)).toEqual(expect.arrayContaining(['API key created', 'API key revoked', 'organisation deleted by its owner']));
  for (const line of lines) expect(JSON.stringify(line)).not.toMatch(IDS);
});

test('at debug level the deletion names the organisation and its owner', async () => {
  w.setEnv({ LOG_LEVEL: 'debug' });
  const owner = await newOwner('debuglogs');
  const logs = captureLogs();
  await keyAndDeletion(owner);
  vi.restoreAllMocks();
  const debug = logs().filter((l) => l.level === 'debug' && l.msg === 'organisation deleted by its owner');
  expect(debug).toEqual([expect.objectContaining({ orgId: owner.orgId, userId: owner.userId })]);
});
