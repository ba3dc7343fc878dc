// Every dashboard route that names one thing of an organisation (a member, an invitation, an app, a destination, an
// API key…) is called, for each of its methods, by the owner of ANOTHER organisation with the first organisation's ids
// (404, never a hint that it exists), and by a MEMBER of that organisation where only admins may act (403). The list
// is checked against the generated route table, so a new route under /api/v1/org/ fails this file until its
// expectation is written here. Lists read by the other organisation hold none of the first one's ids, and nothing the
// refused calls aimed at has changed.
import { generateKeyPairSync } from 'node:crypto';
import { describe, expect, test } from 'vitest';
import { getDb } from '@/server/db/client';
import { createDestination } from '@/server/monitor/service';
import type { Method } from '@/server/http/api';
import { apiRoutes } from '@/server/http/routes';
import { setUpMailApi } from '../helpers/apiWorld';
import { memberOf, newOwner, type SignedInUser } from '../helpers/orgs';
import { call } from '../helpers/request';

const w = setUpMailApi('org-authorization', { HCAPTCHA_SECRET: undefined, STRIPE_SECRET_KEY: undefined, TRUST_PROXY: '1' });

let n = 0;
const nextIp = () => `198.19.${Math.floor(++n / 250)}.${(n % 250) + 1}`;

/** What a call needs beyond the id: a body a permitted caller could send, and whether a member may make it. */
type Case = { body?: unknown; memberMay?: boolean; /** The status a member gets when the role is not what stops the call. */ memberGets?: number };

/** Every method of every /api/v1/org/ route with a path parameter. `[id]` is read per route from `ids`. */
const CASES: Record<string, Partial<Record<Method, Case>>> = {
  '/api/v1/org/members/[id]': { PATCH: { body: { role: 'admin' } }, DELETE: {} },
  '/api/v1/org/invitations/[id]': { DELETE: {} },
  '/api/v1/org/destinations/[id]': { PATCH: { body: { paused: true } }, DELETE: {} },
  '/api/v1/org/destinations/[id]/test': { POST: { body: {} } },
  '/api/v1/org/destinations/[id]/rotate-secret': { POST: { body: {} } },
  '/api/v1/org/api-keys/[id]': { DELETE: {} },
  '/api/v1/org/apps/[appKey]': { DELETE: {} },
  '/api/v1/org/apps/[appKey]/stats': { GET: { memberMay: true } },
  '/api/v1/org/apps/[appKey]/terms': { GET: { memberMay: true } },
  '/api/v1/org/apps/[appKey]/ratings': { GET: { memberMay: true } },
  '/api/v1/org/apps/[appKey]/reviews/summary': { POST: { body: {}, memberMay: true } },
  '/api/v1/org/apps/[appKey]/reviews/summary/[summaryId]': { GET: { memberMay: true } },
  '/api/v1/org/apps/[appKey]/credentials': { PUT: { body: ascCredentials() }, DELETE: {} },
  // Members reply; this app has no store credentials, so the member's reply stops there (409), not at the role.
  '/api/v1/org/reviews/[id]/reply': { POST: { body: { text: 'Thanks!' }, memberGets: 409 }, DELETE: { memberGets: 409 } },
  '/api/v1/org/reply-templates/[id]': { PATCH: { body: { name: 'Renamed' }, memberMay: true }, DELETE: { memberMay: true } },
  // Members translate and draft; this server has no translator and no language model, so they stop there (503).
  '/api/v1/org/reviews/[id]/translate': { POST: { body: { language: 'de' }, memberGets: 503 } },
  '/api/v1/org/reviews/[id]/draft-reply': { GET: { memberMay: true }, POST: { body: {}, memberGets: 503 } },
  // Members create tickets; this organisation has not connected Zendesk, so the member stops there (409).
  '/api/v1/org/reviews/[id]/ticket': { POST: { body: {}, memberGets: 409 } },
  // The queue (server/workflow): every member triages; renaming and deleting tags is for admins.
  '/api/v1/org/reviews/[id]': { GET: { memberMay: true }, PATCH: { body: { status: 'needs_reply' }, memberMay: true } },
  '/api/v1/org/reviews/[id]/notes': { GET: { memberMay: true }, POST: { body: { text: 'Called the customer.' }, memberMay: true } },
  '/api/v1/org/tags/[id]': { PATCH: { body: { name: 'Renamed tag' } }, DELETE: {} },
  '/api/v1/org/apps/[appKey]/tags': { GET: { memberMay: true } },
  // Members approve and reject rules' drafts (approving is replying); this app has no store credentials, so a member's
  // approval stops there (409). Lifting a reply pause is for admins.
  '/api/v1/org/replies/[id]/approve': { POST: { body: {}, memberGets: 409 } },
  '/api/v1/org/replies/[id]/reject': { POST: { body: {}, memberMay: true } },
  '/api/v1/org/reply-pauses/[appKey]': { DELETE: {} },
  // Rules (server/rules): admins and the owner change them; every member reads them and dry-runs one.
  '/api/v1/org/rules/[id]': { PATCH: { body: { enabled: false } }, DELETE: {} },
  '/api/v1/org/rules/[id]/test': { POST: { body: {}, memberMay: true } },
};

/** A well-formed App Store Connect key (a body that passes validation, so the refusal comes from authorization). */
function ascCredentials() {
  const { privateKey } = generateKeyPairSync('ec', { namedCurve: 'prime256v1' });
  const pem = privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
  return { kind: 'app_store_connect', issuer_id: '57246542-96fe-1a63-e053-0824d011072a', key_id: '2X9R4HXF34', private_key: pem };
}

type World = { owner: SignedInUser; member: SignedInUser; admin: SignedInUser; stranger: SignedInUser; ids: Record<string, string> };

async function world(): Promise<World> {
  const owner = await newOwner('alpha');
  const admin = await memberOf(owner, 'admin');
  const member = await memberOf(owner, 'member');
  const stranger = await newOwner('stranger');
  const send = <T>(method: 'POST', path: string, body: unknown) => call<T>(w.api, method, path, body, { token: owner.token, ip: nextIp() });

  const invitation = await send<{ id: string }>('POST', '/api/v1/org/invitations', { email: `invitee-${Date.now()}@example.com`, role: 'member' });
  expect(invitation.status, invitation.text).toBe(201);
  const key = await send<{ id: string }>('POST', '/api/v1/org/api-keys', { name: 'CI' });
  expect(key.status, key.text).toBe(201);
  const destination = await createDestination({
    orgId: owner.orgId,
    platform: 'slack',
    url: 'https://hooks.slack.com/services/T00000000/B00000000/XXXXXXXXXXXXXXXXXXXXXXXX',
    apps: [{ store: 'apple_app_store', appId: String(1_500_000_000 + Math.floor(Math.random() * 1e8)), title: 'Alpha app' }],
    welcomeCount: 0,
  });
  const db = await getDb();
  const appId = String(1_400_000_000 + Math.floor(Math.random() * 1e8));
  const appKey = `apple_app_store__${appId}`;
  await db.insertInto('apps').values({ key: appKey, store: 'apple_app_store', app_id: appId, title: 'Alpha inbox app', icon_url: null, store_url: null, developer: null }).execute();
  await db.insertInto('org_apps').values({ org_id: owner.orgId, app_key: appKey, countries: ['us'], added_by: owner.userId, added_by_email: owner.email }).execute();
  const review = await db
    .insertInto('reviews')
    .values({ app_key: appKey, store: 'apple_app_store', store_review_id: `auth-${appId}`, country: 'us', language: 'en', author_name: 'Kim', title: null, body: 'Fine', rating: 4, app_version: null, written_at: null, updated_at: new Date(), reply_text: null, reply_updated_at: null, permalink: null, sentiment: null, sentiment_score: null })
    .returning('id')
    .executeTakeFirstOrThrow();
  const summary = await send<{ id: string }>('POST', `/api/v1/org/apps/${appKey}/reviews/summary`, {});
  expect(summary.status, summary.text).toBe(201);
  const tag = await send<{ id: string }>('POST', '/api/v1/org/tags', { name: `billing-${Date.now()}`, color: '#d93025' });
  expect(tag.status, tag.text).toBe(201);
  const template = await send<{ id: string }>('POST', '/api/v1/org/reply-templates', { app_key: appKey, name: 'Thanks', body: 'Thanks {author}!' });
  expect(template.status, template.text).toBe(201);
  const draftId = `rpl_${'a'.repeat(14)}${String(Date.now()).slice(-10)}`;
  await db
    .insertInto('replies')
    .values({ id: draftId, org_id: owner.orgId, review_id: review.id, app_key: appKey, text: 'Thanks Kim!', state: 'awaiting_approval', author_label: 'Rule "Thanks"', review_updated_at: new Date(), rule_id: 'rul_thanks', rule_name: 'Thanks', rule_mode: 'approval', drafted_by: 'template' })
    .execute();
  await db.insertInto('reply_pauses').values({ org_id: owner.orgId, app_key: appKey, kind: 'credentials', reason: 'The key was revoked.', until: null }).execute();
  const rule = await send<{ id: string }>('POST', '/api/v1/org/rules', { name: 'Billing', conditions: { ratings: [1] }, actions: [{ type: 'tag', tag_id: tag.json.data.id }] });
  expect(rule.status, rule.text).toBe(201);
  return {
    owner, admin, member, stranger,
    ids: {
      '/api/v1/org/members/[id]': admin.userId,
      '/api/v1/org/invitations/[id]': invitation.json.data.id,
      '/api/v1/org/destinations/[id]': destination.id,
      '/api/v1/org/destinations/[id]/test': destination.id,
      '/api/v1/org/destinations/[id]/rotate-secret': destination.id,
      '/api/v1/org/api-keys/[id]': key.json.data.id,
      '/api/v1/org/apps/[appKey]': appKey,
      '/api/v1/org/apps/[appKey]/stats': appKey,
      '/api/v1/org/apps/[appKey]/terms': appKey,
      '/api/v1/org/apps/[appKey]/ratings': appKey,
      '/api/v1/org/apps/[appKey]/reviews/summary': appKey,
      '/api/v1/org/apps/[appKey]/reviews/summary/[summaryId]': `${appKey}|${summary.json.data.id}`,
      '/api/v1/org/apps/[appKey]/credentials': appKey,
      '/api/v1/org/reviews/[id]/reply': String(review.id),
      '/api/v1/org/reviews/[id]/translate': String(review.id),
      '/api/v1/org/reviews/[id]/draft-reply': String(review.id),
      '/api/v1/org/reviews/[id]/ticket': String(review.id),
      '/api/v1/org/reviews/[id]': String(review.id),
      '/api/v1/org/reviews/[id]/notes': String(review.id),
      '/api/v1/org/tags/[id]': tag.json.data.id,
      '/api/v1/org/apps/[appKey]/tags': appKey,
      '/api/v1/org/reply-templates/[id]': template.json.data.id,
      '/api/v1/org/replies/[id]/approve': draftId,
      '/api/v1/org/replies/[id]/reject': draftId,
      '/api/v1/org/reply-pauses/[appKey]': appKey,
      '/api/v1/org/rules/[id]': rule.json.data.id,
      '/api/v1/org/rules/[id]/test': rule.json.data.id,
    },
  };
}

/** The route with its parameters filled in: `id` holds one value, or one per parameter separated by `|`. */
function urlOf(route: string, id: string): string {
  const values = id.split('|');
  let i = 0;
  return route.replace(/\[[^\]]+\]/g, () => encodeURIComponent(values[Math.min(i++, values.length - 1)]));
}

/** The rows the refused calls aimed at, to compare before and after. */
async function snapshot(wd: World) {
  const db = await getDb();
  return {
    admin: await db.selectFrom('users').select(['role', 'org_id']).where('id', '=', wd.admin.userId).executeTakeFirst(),
    invitation: await db.selectFrom('org_invitations').selectAll().where('id', '=', wd.ids['/api/v1/org/invitations/[id]']).executeTakeFirst(),
    destination: await db.selectFrom('destinations').select(['status', 'org_id', 'filters']).where('id', '=', wd.ids['/api/v1/org/destinations/[id]']).executeTakeFirst(),
    key: await db.selectFrom('api_keys').select(['revoked_at']).where('id', '=', wd.ids['/api/v1/org/api-keys/[id]']).executeTakeFirst(),
    app: await db.selectFrom('org_apps').select(['org_id', 'countries', 'credentials_enc']).where('app_key', '=', wd.ids['/api/v1/org/apps/[appKey]']).execute(),
    rules: await db.selectFrom('rules').select(['id', 'name', 'enabled', 'position', 'actions']).where('org_id', '=', wd.owner.orgId).orderBy('position').execute(),
  };
}

describe('authorization of the dashboard routes, with two organisations', () => {
  test('every route under /api/v1/org/ that takes an id has its expectations here', () => {
    const routes = apiRoutes.filter((r) => r.path.startsWith('/api/v1/org/') && r.path.includes('['));
    const missing = routes.flatMap((r) => Object.keys(r.route.endpoints).filter((m) => !CASES[r.path]?.[m as Method]).map((m) => `${m} ${r.path}`));
    expect(missing).toEqual([]);
    const stale = Object.keys(CASES).filter((p) => !routes.some((r) => r.path === p));
    expect(stale).toEqual([]);
  });

  test("another organisation's owner gets 404 for each of them, and nothing changes", async () => {
    const wd = await world();
    const before = await snapshot(wd);
    for (const [route, methods] of Object.entries(CASES)) {
      for (const [method, c] of Object.entries(methods)) {
        const r = await call(w.api, method as Method, urlOf(route, wd.ids[route]), c.body, { token: wd.stranger.token, ip: nextIp() });
        expect(r.status, `${method} ${route} as another organisation: ${r.text}`).toBe(404);
        expect(r.json.error.code).toBe('not_found');
      }
    }
    expect(await snapshot(wd)).toEqual(before);
  });

  test('a member gets 403 where only admins may act, and reads what members read', async () => {
    const wd = await world();
    const before = await snapshot(wd);
    for (const [route, methods] of Object.entries(CASES)) {
      for (const [method, c] of Object.entries(methods)) {
        const r = await call(w.api, method as Method, urlOf(route, wd.ids[route]), c.body, { token: wd.member.token, ip: nextIp() });
        if (c.memberMay) expect(r.status, `${method} ${route} as a member: ${r.text}`).toBeLessThan(300);
        else if (c.memberGets) expect(r.status, `${method} ${route} as a member: ${r.text}`).toBe(c.memberGets);
        else {
          expect(r.status, `${method} ${route} as a member: ${r.text}`).toBe(403);
          expect(r.json.error.message).toMatch(/admin|owner/i);
        }
      }
    }
    expect(await snapshot(wd)).toEqual(before);
  });

  test("another organisation's lists hold none of these ids", async () => {
    const wd = await world();
    // A review id is a small number that any answer may contain by chance; the inbox filter below covers reviews.
    const mine = Object.values(wd.ids).filter((id) => !/^\d+$/.test(id));
    const lists = ['/api/v1/org/members', '/api/v1/org/invitations', '/api/v1/org/destinations', '/api/v1/org/api-keys', '/api/v1/org/audit-log', '/api/v1/org/apps', '/api/v1/org/reviews', '/api/v1/org/reply-templates', '/api/v1/org/replies', '/api/v1/org/reply-pauses', '/api/v1/org/rules'];
    for (const path of lists) {
      const r = await call(w.api, 'GET', path, undefined, { token: wd.stranger.token, ip: nextIp() });
      expect(r.status, `${path}: ${r.text}`).toBe(200);
      for (const id of mine) expect(r.text, `${path} shows ${id}`).not.toContain(id);
      expect(r.text).not.toContain(wd.owner.email);
    }
    // Naming the other organisation's app in the inbox's filter is a 404 too, not an empty page.
    const filtered = await call(w.api, 'GET', `/api/v1/org/reviews?app=${wd.ids['/api/v1/org/apps/[appKey]']}`, undefined, { token: wd.stranger.token, ip: nextIp() });
    expect(filtered.status, filtered.text).toBe(404);
  });

  test('POST /api/v1/org/rules: a member gets 403, another organisation cannot name these ids, a removed member is signed out', async () => {
    const wd = await world();
    const before = await snapshot(wd);
    const tagId = (await (await getDb()).selectFrom('tags').select('id').where('org_id', '=', wd.owner.orgId).executeTakeFirstOrThrow()).id;
    const body = { name: 'Mine now', actions: [{ type: 'tag', tag_id: tagId }] };
    const byMember = await call(w.api, 'POST', '/api/v1/org/rules', body, { token: wd.member.token, ip: nextIp() });
    expect(byMember.status, byMember.text).toBe(403);
    expect(byMember.json.error.message).toMatch(/admin|owner/i);
    const byStranger = await call(w.api, 'POST', '/api/v1/org/rules', body, { token: wd.stranger.token, ip: nextIp() });
    expect(byStranger.status, byStranger.text).toBe(400);
    expect(byStranger.json.error.message).toMatch(/is not a tag of your organisation/);
    const removed = await call(w.api, 'DELETE', `/api/v1/org/members/${wd.admin.userId}`, undefined, { token: wd.owner.token, ip: nextIp() });
    expect(removed.status, removed.text).toBe(200);
    for (const [method, path] of [['GET', '/api/v1/org/rules'], ['POST', '/api/v1/org/rules'], ['PATCH', `/api/v1/org/rules/${wd.ids['/api/v1/org/rules/[id]']}`], ['DELETE', `/api/v1/org/rules/${wd.ids['/api/v1/org/rules/[id]']}`], ['POST', `/api/v1/org/rules/${wd.ids['/api/v1/org/rules/[id]']}/test`]] as const) {
      const r = await call(w.api, method, path, method === 'GET' || method === 'DELETE' ? undefined : method === 'PATCH' ? { enabled: false } : path.endsWith('/test') ? {} : body, { token: wd.admin.token, ip: nextIp() });
      expect(r.status, `${method} ${path} as a removed admin: ${r.text}`).toBe(401);
    }
    const after = await snapshot(wd);
    expect(after.rules).toEqual(before.rules);
    expect((await call<unknown[]>(w.api, 'GET', '/api/v1/org/rules', undefined, { token: wd.stranger.token, ip: nextIp() })).json.data).toEqual([]);
  });
});
