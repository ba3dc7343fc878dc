// Rules (server/rules) through the real routes, a real database (PGlite and PostgreSQL), the real ingest path (the
// loopback App Store review feed and App Store Connect, polled by pollAppNow) and the real background job `rules`
// running in this process as in `npm start`: CRUD with validation and another organisation's ids refused; each
// condition; each action (tag, assign, set_status, notify through a loopback Slack hook, a reply drafted for approval,
// a Zendesk ticket on the loopback Zendesk); order and stop_after; an edited review evaluated again; the dry run over
// the newest 200 reviews (its translation read, nothing written); fired-this-week counts; and a stored review
// evaluated within a second of the poll that stored it.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { sql } from 'kysely';
import { getDb } from '@/server/db/client';
import { createDestination, drainDeliveries, pollAppNow } from '@/server/monitor/service';
import { clearGoogleTokenCache } from '@/server/sources/playDeveloper';
import { workflowOfReviews } from '@/server/workflow/data';
import { runDueTickets } from '@/server/zendesk/tickets';
import { rulesJob, startRulesLoop } from '@/server/rules/jobs';
import { memberOf, newOwner, type SignedInUser } from '../helpers/orgs';
import { call } from '../helpers/request';
import { appWith } from '../helpers/seedReviews';
import { startFakeServer, type FakeServer } from '../fakes/http';
import { appStoreConnectRoutes, createAppStoreConnect, createAppStoreConnectKey, type AppStoreConnectFake } from '../fakes/appStoreConnect';
import { createZendesk, zendeskRoutes, type ZendeskFake } from '../fakes/zendesk';
import { marker, newIosApp, newIp, startConnectWorld, type ConnectWorld } from './support/connectWorld';

let w: ConnectWorld;
let stores: FakeServer;
let zdServer: FakeServer;
let asc: AppStoreConnectFake;
let zd: ZendeskFake;
let stopRules: (() => Promise<void>) | undefined;

beforeAll(async () => {
  asc = createAppStoreConnect([]);
  zd = createZendesk();
  stores = await startFakeServer([appStoreConnectRoutes(asc)]);
  zdServer = await startFakeServer([zendeskRoutes(zd)]);
  w = await startConnectWorld({ APPSTORE_CONNECT_BASE_URL: stores.url, ZENDESK_BASE_URL: zdServer.url });
  clearGoogleTokenCache();
  stopRules = await rulesJob.start();
}, 60_000);
afterAll(async () => {
  await stopRules?.();
  await w?.close();
  await stores?.close();
  await zdServer?.close();
});

type Rule = {
  id: string;
  name: string;
  enabled: boolean;
  position: number;
  apps: string[] | null;
  conditions: Record<string, unknown>;
  actions: Array<Record<string, unknown>>;
  stop_after: boolean;
  fired_this_week: number;
};
type DryRun = {
  rule_id: string;
  checked: number;
  matched: number;
  reviews: Array<{ review_id: string; excerpt: string; would: string[]; stopped_by: { id: string; name: string } | null }>;
};
type Outcome = { type: string; outcome: string; reason?: string };

const as = (u: SignedInUser) => ({ token: u.token, ip: newIp() });
const api = <T>(u: SignedInUser, method: string, path: string, body?: unknown) => call<T>(w.api, method, path, body, as(u));

let seq = 0;
const uniq = (s: string) => `${s} ${marker(++seq)}${Date.now().toString(36)}`;

async function newRule(u: SignedInUser, body: Record<string, unknown>): Promise<Rule> {
  const r = await api<Rule>(u, 'POST', '/api/v1/org/rules', body);
  expect(r.status, r.text).toBe(201);
  return r.json.data;
}

async function newTag(u: SignedInUser, name: string): Promise<string> {
  const r = await api<{ id: string }>(u, 'POST', '/api/v1/org/tags', { name: `${name} ${++seq}`, color: '#d93025' });
  expect(r.status, r.text).toBe(201);
  return r.json.data.id;
}

async function template(u: SignedInUser, appKey: string, body = 'Sorry {author}, write to help@example.com.'): Promise<string> {
  const r = await api<{ id: string }>(u, 'POST', '/api/v1/org/reply-templates', { app_key: appKey, name: `T ${++seq}`, body });
  expect(r.status, r.text).toBe(201);
  return r.json.data.id;
}

/** An App Store app of the organisation read from the public review feed; its first (empty) poll done. */
async function feedApp(u: SignedInUser): Promise<{ appId: string; appKey: string }> {
  const app = newIosApp(w);
  const r = await call<{ key: string }>(w.api, 'POST', '/api/v1/org/apps', { app_id: app.appId, app_store: 'apple_app_store' }, as(u));
  expect(r.status, r.text).toBe(201);
  await pollAppNow({ store: 'apple_app_store', appId: app.appId });
  return { appId: app.appId, appKey: r.json.data.key };
}

/** Until the rules job has evaluated everything queued and handed over every pending reply. */
async function rulesSettled(timeoutMs = 10_000): Promise<void> {
  const db = await getDb();
  const until = Date.now() + timeoutMs;
  for (;;) {
    const r = await sql<{ busy: boolean }>`select exists (select 1 from rule_queue) or exists (select 1 from rule_firings where reply_pending) as busy`.execute(db);
    if (!r.rows[0].busy) return;
    if (Date.now() > until) throw new Error('the rules job did not empty its queue');
    await new Promise((res) => setTimeout(res, 25));
  }
}

type FeedSeed = { title?: string; content: string; rating: number; version?: string };

/** Publishes the reviews in the app's US feed, polls them in (the real ingest path), and waits for the rules. */
async function ingest(appId: string, seeds: FeedSeed[]): Promise<string[]> {
  const at = Date.now();
  const published = seeds.map((s, i) => w.feed.publish(appId, 'us', { title: s.title ?? 'Review', content: s.content, rating: s.rating, version: s.version ?? '1.0', updated: new Date(at + i) }));
  await pollAppNow({ store: 'apple_app_store', appId });
  await rulesSettled();
  const db = await getDb();
  const ids: string[] = [];
  for (const p of published) {
    const row = await db.selectFrom('reviews').select('id').where('store_review_id', '=', p.id).executeTakeFirstOrThrow();
    ids.push(String(row.id));
  }
  return ids;
}

async function firings(reviewId: string): Promise<Array<{ rule_id: string; review_version: number; outcomes: Outcome[] }>> {
  const r = await sql<{ rule_id: string; review_version: number; outcomes: unknown }>`
    select rule_id, review_version, outcomes from rule_firings where review_id = ${Number(reviewId)} order by review_version, id`.execute(await getDb());
  return r.rows.map((x) => ({ ...x, outcomes: (typeof x.outcomes === 'string' ? JSON.parse(x.outcomes) : x.outcomes) as Outcome[] }));
}

const tagsOf = async (orgId: string, ids: string[]) => {
  const wf = await workflowOfReviews(orgId, ids);
  return ids.map((id) => (wf.get(id)?.tags ?? []).map((t) => t.id).sort());
};

describe('managing rules', () => {
  test('CRUD, clear 400s, admins only, another organisation’s tags, members, destinations, templates, apps and rules refused', async () => {
    const owner = await newOwner('rulescrud');
    const member = await memberOf(owner, 'member');
    const stranger = await newOwner('rulesstranger');
    const { appKey } = await feedApp(owner);
    const theirs = await feedApp(stranger);
    const tag = await newTag(owner, 'Billing');
    const theirTag = await newTag(stranger, 'Theirs');
    const theirTemplate = await template(stranger, theirs.appKey);
    const theirDestination = await createDestination({ orgId: stranger.orgId, platform: 'slack', url: w.chat.hook('slack').url, apps: [{ store: 'apple_app_store', appId: theirs.appId }], welcomeCount: 0 });
    const mine = await createDestination({ orgId: owner.orgId, platform: 'discord', url: w.chat.hook('discord').url, apps: [{ store: 'apple_app_store', appId: newIosApp(w).appId, title: 'Other' }], welcomeCount: 0 });
    const ownTemplate = await template(owner, appKey);

    const refused = async (body: unknown, status: number, message: RegExp) => {
      const r = await api(owner, 'POST', '/api/v1/org/rules', body);
      expect(r.status, r.text).toBe(status);
      expect(r.json.error.message).toMatch(message);
    };
    const ok = { name: 'Refunds', actions: [{ type: 'tag', tag_id: tag }] };
    await refused({ name: 'No actions', actions: [] }, 400, /a rule does at least one thing/);
    await refused({ name: 'x', conditions: { ratings: [6] }, actions: ok.actions }, 400, /ratings must be 1 to 5/);
    await refused({ name: 'x', conditions: { stars: [1] }, actions: ok.actions }, 400, /conditions can only have ratings/);
    await refused({ name: 'x', conditions: { min_length: 50, max_length: 10 }, actions: ok.actions }, 400, /min_length cannot be more than max_length/);
    await refused({ name: 'x', conditions: { keywords_any: ['  '] }, actions: ok.actions }, 400, /keywords cannot be empty/);
    await refused({ name: 'x', actions: [{ type: 'delete_review' }] }, 400, /each action needs a type/);
    await refused({ name: 'x', actions: [{ type: 'set_status', status: 'closed' }] }, 400, /status must be one of/);
    await refused({ name: 'x', actions: [{ type: 'reply', template_id: ownTemplate, mode: 'auto', daily_cap: 0 }] }, 400, /daily_cap must be at least 1/);
    await refused({ name: 'x', actions: [{ type: 'set_status', status: 'done' }, { type: 'set_status', status: 'new' }] }, 400, /one set_status at most/);
    await refused({ ...ok, priority: 1 }, 400, /Only name, enabled, apps/);
    await refused({ actions: ok.actions }, 400, /name/i);
    // Another organisation's ids read exactly like unknown ones: a 400 naming the field.
    await refused({ name: 'x', actions: [{ type: 'tag', tag_id: theirTag }] }, 400, /^actions\[0\]\.tag_id: .* is not a tag of your organisation/);
    await refused({ name: 'x', conditions: { tags_any: [theirTag] }, actions: ok.actions }, 400, /^conditions\.tags_any: .* is not a tag of your organisation/);
    await refused({ name: 'x', actions: [{ type: 'assign', user_id: stranger.userId }] }, 400, /^actions\[0\]\.user_id: .* is not a member of your organisation/);
    await refused({ name: 'x', actions: [{ type: 'notify', destination_id: theirDestination.id }] }, 400, /^actions\[0\]\.destination_id: .* is not a destination of your organisation/);
    await refused({ name: 'x', actions: [{ type: 'reply', template_id: theirTemplate, mode: 'approval', daily_cap: 5 }] }, 400, /^actions\[0\]\.template_id: .* is not a reply template of your organisation/);
    await refused({ name: 'x', actions: [{ type: 'reply', template_id: ownTemplate, mode: 'approval', daily_cap: 5, approval_destination_id: mine.id }] }, 400, /approval_destination_id: .* is not a Slack channel/);
    await refused({ ...ok, apps: [theirs.appKey] }, 400, /^apps: .* is not an app of your organisation/);

    // Members read; only admins and the owner change.
    const byMember = await api(member, 'POST', '/api/v1/org/rules', ok);
    expect(byMember.status, byMember.text).toBe(403);
    expect(byMember.json.error.message).toMatch(/admin|owner/i);

    const a = await newRule(owner, ok);
    expect(a).toMatchObject({ name: 'Refunds', enabled: true, position: 0, apps: null, conditions: {}, stop_after: false, fired_this_week: 0, actions: [{ type: 'tag', tag_id: tag }] });
    expect(a.id).toMatch(/^rul_[0-9A-Za-z]{24}$/);
    const b = await newRule(owner, { name: 'Angry', enabled: false, apps: [appKey], conditions: { ratings: [1, 2], keywords_any: ['refund'] }, actions: [{ type: 'set_status', status: 'needs_reply' }], stop_after: true });
    const c = await newRule(owner, { name: 'Third', actions: [{ type: 'notify', destination_id: mine.id }] });
    expect([b.position, c.position]).toEqual([1, 2]);
    expect(b).toMatchObject({ enabled: false, apps: [appKey], stop_after: true, conditions: { ratings: [1, 2], keywords_any: ['refund'] } });

    const listed = await api<Rule[]>(member, 'GET', '/api/v1/org/rules');
    expect(listed.status, listed.text).toBe(200);
    expect(listed.json.data.map((r) => [r.name, r.position, r.fired_this_week])).toEqual([['Refunds', 0, 0], ['Angry', 1, 0], ['Third', 2, 0]]);
    expect((await api<Rule[]>(stranger, 'GET', '/api/v1/org/rules')).json.data).toEqual([]);

    // PATCH: fields, a move (the others renumbered), validation, another organisation's rule is not found.
    const moved = await api<Rule>(owner, 'PATCH', `/api/v1/org/rules/${c.id}`, { position: 0, name: 'First now', enabled: false });
    expect(moved.status, moved.text).toBe(200);
    expect(moved.json.data).toMatchObject({ name: 'First now', position: 0, enabled: false });
    expect((await api<Rule[]>(owner, 'GET', '/api/v1/org/rules')).json.data.map((r) => [r.name, r.position])).toEqual([['First now', 0], ['Refunds', 1], ['Angry', 2]]);
    const cleared = await api<Rule>(owner, 'PATCH', `/api/v1/org/rules/${b.id}`, { apps: null, conditions: {} });
    expect(cleared.json.data).toMatchObject({ apps: null, conditions: {} });
    expect((await api(owner, 'PATCH', `/api/v1/org/rules/${b.id}`, {})).json.error.message).toMatch(/Nothing to change/);
    expect((await api(owner, 'PATCH', `/api/v1/org/rules/${b.id}`, { actions: [{ type: 'tag', tag_id: theirTag }] })).status).toBe(400);
    expect((await api(owner, 'PATCH', '/api/v1/org/rules/rul_nope', { enabled: true })).status).toBe(400);
    expect((await api(member, 'PATCH', `/api/v1/org/rules/${b.id}`, { enabled: true })).status).toBe(403);
    expect((await api(stranger, 'PATCH', `/api/v1/org/rules/${b.id}`, { enabled: true })).status).toBe(404);
    expect((await api(stranger, 'DELETE', `/api/v1/org/rules/${b.id}`)).status).toBe(404);
    expect((await api(stranger, 'POST', `/api/v1/org/rules/${b.id}/test`, {})).status).toBe(404);

    // DELETE closes the gap.
    expect((await api(member, 'DELETE', `/api/v1/org/rules/${a.id}`)).status).toBe(403);
    expect((await api(owner, 'DELETE', `/api/v1/org/rules/${a.id}`)).status).toBe(200);
    expect((await api(owner, 'DELETE', `/api/v1/org/rules/${a.id}`)).status).toBe(404);
    expect((await api<Rule[]>(owner, 'GET', '/api/v1/org/rules')).json.data.map((r) => [r.name, r.position])).toEqual([['First now', 0], ['Angry', 1]]);

    const audit = await api<Array<{ action: string }>>(owner, 'GET', '/api/v1/org/audit-log?limit=100');
    expect(audit.json.data.map((e) => e.action)).toEqual(expect.arrayContaining(['rule.created', 'rule.changed', 'rule.deleted']));
  });
});

describe('conditions, through the ingest path', () => {
  test('each condition alone and together (AND); an earlier rule’s tag is seen by tags_any', async () => {
    const owner = await newOwner('rulesconds');
    const { appId } = await feedApp(owner);
    const t = {
      rating: await newTag(owner, 'rating'),
      kwAny: await newTag(owner, 'kwany'),
      kwNone: await newTag(owner, 'kwnone'),
      lang: await newTag(owner, 'lang'),
      country: await newTag(owner, 'country'),
      usThree: await newTag(owner, 'usthree'),
      version: await newTag(owner, 'version'),
      sentiment: await newTag(owner, 'sentiment'),
      chained: await newTag(owner, 'chained'),
      long: await newTag(owner, 'long'),
      short: await newTag(owner, 'short'),
    };
    const tagRule = (name: string, conditions: Record<string, unknown>, tag: string) => newRule(owner, { name, conditions, actions: [{ type: 'tag', tag_id: tag }] });
    await tagRule('ratings', { ratings: [1] }, t.rating);
    await tagRule('keywords_any', { keywords_any: ['crash', 'sign in'] }, t.kwAny);
    await tagRule('keywords_none', { ratings: [5], keywords_none: ['ads'] }, t.kwNone);
    await tagRule('languages', { languages: ['de'] }, t.lang);
    await tagRule('countries', { countries: ['gb'] }, t.country);
    await tagRule('countries and ratings', { countries: ['us'], ratings: [3] }, t.usThree);
    await tagRule('versions', { versions: ['2.4'] }, t.version);
    await tagRule('sentiments', { sentiments: ['negative'] }, t.sentiment);
    await tagRule('tags_any', { tags_any: [t.rating], versions: ['2.4'] }, t.chained);
    await tagRule('min_length', { min_length: 200 }, t.long);
    await tagRule('max_length', { max_length: 10 }, t.short);

    const long = `${'This app is fine for what I need and it works well on my phone most of the time. '.repeat(3)}Nothing more to say.`;
    const ids = await ingest(appId, [
      { content: 'The app crashes every single time I open it. Terrible, awful, useless, I hate it.', rating: 1, version: '2.4.1' },
      { content: 'Ich liebe diese App sehr, sie funktioniert jeden Tag ohne Probleme und ist wirklich wunderbar.', rating: 5, version: '2.40' },
      { content: 'Great app but there are too many ads now', rating: 5 },
      { content: 'ok', rating: 3 },
      { content: long, rating: 4 },
      { content: 'Since the update I cannot sign in anymore', rating: 2, version: '2.4' },
      { content: 'It crashed once, refunded', rating: 2, version: '3.0' },
    ]);
    const expected = [
      [t.rating, t.kwAny, t.version, t.sentiment, t.chained],
      [t.kwNone, t.lang],
      [],
      [t.usThree, t.short],
      [t.long],
      // "cannot sign in" and "crashed" read as negative to the sentiment classifier too.
      [t.kwAny, t.version, t.sentiment],
      [t.kwAny, t.sentiment],
    ];
    expect(await tagsOf(owner.orgId, ids)).toEqual(expected.map((x) => [...x].sort()));
    const rules = (await api<Rule[]>(owner, 'GET', '/api/v1/org/rules')).json.data;
    expect(Object.fromEntries(rules.map((r) => [r.name, r.fired_this_week]))).toMatchObject({ ratings: 1, keywords_any: 3, countries: 0, versions: 2, tags_any: 1, max_length: 1 });
    // A rule limited to another app does not look at this one.
    const other = await feedApp(owner);
    const onlyOther = await newRule(owner, { name: 'other app', apps: [other.appKey], actions: [{ type: 'tag', tag_id: t.rating }] });
    const [later] = await ingest(appId, [{ content: 'Fine', rating: 4 }]);
    expect((await firings(later)).map((f) => f.rule_id)).not.toContain(onlyOther.id);
  });
});

describe('actions, order, stop_after, edits, timing', () => {
  test('every action on one review: tag, assign, status, notify, reply for approval, Zendesk ticket; named in the audit log', async () => {
    const owner = await newOwner('rulesactions');
    const member = await memberOf(owner, 'member');
    // App Store Connect: the reply action needs the app's store credentials.
    const key = await createAppStoreConnectKey({ role: 'CUSTOMER_SUPPORT' });
    asc.keys.push(key);
    const ios = newIosApp(w);
    const added = await call<{ key: string }>(w.api, 'POST', '/api/v1/org/apps', { app_id: ios.appId, app_store: 'apple_app_store' }, as(owner));
    expect(added.status, added.text).toBe(201);
    const appKey = added.json.data.key;
    asc.addApp(ios.appId);
    const saved = await api(owner, 'PUT', `/api/v1/org/apps/${encodeURIComponent(appKey)}/credentials`, { kind: 'app_store_connect', issuer_id: key.issuerId, key_id: key.keyId, private_key: key.privateKeyPem });
    expect(saved.status, saved.text).toBe(200);
    await pollAppNow({ store: 'apple_app_store', appId: ios.appId });
    // Zendesk connected on the loopback fake.
    const agent = zd.addUser({ email: `agent-${Date.now()}@acme.test`, role: 'admin', name: 'Ari Agent' });
    expect((await api(owner, 'PUT', '/api/v1/org/integrations/zendesk', { subdomain: 'acme', email: agent.email, api_token: agent.token })).status).toBe(200);
    // A Slack channel watching another app: what it gets of this app comes from the rule alone.
    const hook = w.chat.hook('slack');
    const dest = await createDestination({ orgId: owner.orgId, platform: 'slack', url: hook.url, apps: [{ store: 'apple_app_store', appId: newIosApp(w).appId, title: 'Elsewhere' }], welcomeCount: 0 });
    const tag = await newTag(owner, 'Refund');
    const tpl = await template(owner, appKey);
    const rule = await newRule(owner, {
      name: 'Refund triage',
      conditions: { keywords_any: ['refund'] },
      actions: [
        { type: 'tag', tag_id: tag },
        { type: 'assign', user_id: member.userId },
        { type: 'set_status', status: 'needs_reply' },
        { type: 'notify', destination_id: dest.id },
        { type: 'reply', template_id: tpl, mode: 'approval', daily_cap: 5 },
        { type: 'zendesk_ticket' },
      ],
    });

    const body = uniq('I want a refund now');
    const published = asc.publish(ios.appId, { body, reviewerNickname: 'Maya K', rating: 1 });
    asc.publish(ios.appId, { body: uniq('Lovely app'), reviewerNickname: 'Ola', rating: 5 });
    await pollAppNow({ store: 'apple_app_store', appId: ios.appId });
    await rulesSettled();
    const row = await (await getDb()).selectFrom('reviews').select('id').where('app_key', '=', appKey).where('body', '=', body).executeTakeFirstOrThrow();
    const id = String(row.id);
    expect(published).toBeTruthy();

    const [firing, ...more] = await firings(id);
    expect(more).toEqual([]);
    expect(firing.rule_id).toBe(rule.id);
    expect(firing.outcomes.map((o) => [o.type, o.outcome])).toEqual([
      ['tag', 'done'],
      ['assign', 'done'],
      ['set_status', 'done'],
      ['notify', 'queued'],
      ['reply', 'awaiting_approval'],
      ['zendesk_ticket', 'queued'],
    ]);
    const wf = (await workflowOfReviews(owner.orgId, [id])).get(id)!;
    expect(wf).toMatchObject({ status: 'needs_reply', assignee_id: member.userId });
    expect(wf.tags.map((t) => t.id)).toEqual([tag]);

    const replies = await api<Array<{ review_id: string; state: string; rule: { id: string; name: string; mode: string } | null }>>(owner, 'GET', '/api/v1/org/replies?state=awaiting_approval');
    expect(replies.json.data.filter((r) => r.review_id === id)).toMatchObject([{ state: 'awaiting_approval', rule: { id: rule.id, name: 'Refund triage', mode: 'approval' } }]);
    expect(asc.responsePosts.length).toBe(0);

    await drainDeliveries();
    expect(hook.delivered().some((r) => JSON.stringify(r.body).includes(body.split(' ').at(-1)!))).toBe(true);
    await runDueTickets();
    expect(zd.creates.filter((c) => c.external_id === id)).toHaveLength(1);

    const audit = await api<Array<{ action: string; details: Record<string, unknown> }>>(owner, 'GET', '/api/v1/org/audit-log?limit=100');
    for (const action of ['review.tagged', 'review.assigned', 'review.status_changed', 'review.reply_drafted']) {
      expect(audit.json.data.find((e) => e.action === action)?.details, action).toMatchObject({ rule_id: rule.id });
    }
  });

  test('a pass over many reviews: actions in order as if each ran alone, refusals skipped with the reason, one audit entry per rule and change; another organisation on the same app acts on its own', async () => {
    const owner = await newOwner('rulesbatch');
    const [m1, m2, leaver] = [await memberOf(owner, 'member'), await memberOf(owner, 'member'), await memberOf(owner, 'member')];
    const { appId, appKey } = await feedApp(owner);
    const other = await newOwner('rulesbatchother');
    expect((await call(w.api, 'POST', '/api/v1/org/apps', { app_id: appId, app_store: 'apple_app_store' }, as(other))).status).toBe(201);
    const [crash, gone] = [await newTag(owner, 'crash'), await newTag(owner, 'gone')];
    const theirs = await newTag(other, 'theirs');
    const paused = await createDestination({ orgId: owner.orgId, platform: 'slack', url: w.chat.hook('slack').url, apps: [{ store: 'apple_app_store', appId: newIosApp(w).appId, title: 'Elsewhere' }], welcomeCount: 0 });
    expect((await api(owner, 'PATCH', `/api/v1/org/destinations/${paused.id}`, { paused: true })).status).toBe(200);
    const crashes = { keywords_any: ['crash'] };
    const first = await newRule(owner, { name: 'First', conditions: crashes, actions: [{ type: 'tag', tag_id: crash }, { type: 'assign', user_id: m1.userId }, { type: 'set_status', status: 'needs_reply' }] });
    const second = await newRule(owner, { name: 'Second', conditions: crashes, actions: [{ type: 'tag', tag_id: crash }, { type: 'assign', user_id: m2.userId }, { type: 'set_status', status: 'needs_reply' }, { type: 'notify', destination_id: paused.id }] });
    const refused = await newRule(owner, { name: 'Refused', conditions: crashes, actions: [{ type: 'assign', user_id: leaver.userId }, { type: 'tag', tag_id: gone }] });
    // What the third rule names goes away after it was written: a member removed, a tag deleted.
    expect((await call(w.api, 'DELETE', `/api/v1/org/members/${leaver.userId}`, undefined, as(owner))).status).toBe(200);
    expect((await api(owner, 'DELETE', `/api/v1/org/tags/${gone}`)).status).toBe(200);
    const mine = await newRule(other, { name: 'Theirs', conditions: crashes, actions: [{ type: 'tag', tag_id: theirs }, { type: 'set_status', status: 'done' }] });

    const seeds = Array.from({ length: 40 }, (_, i) => ({ content: i % 4 === 3 ? uniq('Lovely app') : uniq(`It crashes on start ${i}`), rating: 1 + (i % 3) }));
    const ids = await ingest(appId, seeds);
    const crashed = ids.filter((_, i) => i % 4 !== 3);
    const calm = ids.filter((_, i) => i % 4 === 3);
    expect(crashed).toHaveLength(30);

    for (const id of crashed) {
      const f = await firings(id);
      expect(f.map((x) => x.rule_id)).toEqual([first.id, second.id, refused.id, mine.id]);
      expect(f.map((x) => x.outcomes.map((o) => `${o.type} ${o.outcome}${o.reason ? `: ${o.reason}` : ''}`))).toEqual([
        ['tag done', 'assign done', 'set_status done'],
        ['tag unchanged', 'assign done', 'set_status unchanged', `notify skipped: the destination is paused, stopped or no longer there`],
        ['assign skipped: assignee_id: that person is not a member of your organisation.', `tag skipped: tag ${gone} is not a tag of your organisation.`],
        ['tag done', 'set_status done'],
      ]);
    }
    for (const id of calm) expect(await firings(id)).toEqual([]);
    const wf = await workflowOfReviews(owner.orgId, crashed);
    for (const id of crashed) expect(wf.get(id)).toMatchObject({ status: 'needs_reply', assignee_id: m2.userId, tags: [expect.objectContaining({ id: crash })] });
    const theirWf = await workflowOfReviews(other.orgId, crashed);
    for (const id of crashed) expect(theirWf.get(id)).toMatchObject({ status: 'done', assignee_id: null, tags: [expect.objectContaining({ id: theirs })] });
    expect((await workflowOfReviews(owner.orgId, calm)).get(calm[0])).toMatchObject({ status: 'new', assignee_id: null, tags: [] });
    const delivered = await (await getDb()).selectFrom('deliveries').select('id').where('destination_id', '=', paused.id).execute();
    expect(delivered).toEqual([]);

    // The audit log: each rule's each change once, naming every review it changed; nothing for what was already so.
    const audit = await api<Array<{ action: string; details: { rule_id?: string; review_ids?: string[]; assignee_id?: string; status?: string; tags?: string[] } }>>(owner, 'GET', '/api/v1/org/audit-log?limit=100');
    const byRules = audit.json.data.filter((e) => e.details.rule_id).map((e) => [e.details.rule_id, e.action, [...(e.details.review_ids ?? [])].sort()]);
    const sorted = [...crashed].sort();
    expect(byRules).toEqual(
      expect.arrayContaining([
        [first.id, 'review.tagged', sorted],
        [first.id, 'review.assigned', sorted],
        [first.id, 'review.status_changed', sorted],
        [second.id, 'review.assigned', sorted],
      ]),
    );
    expect(byRules).toHaveLength(4);
    const theirAudit = await call<Array<{ action: string; details: { rule_id?: string } }>>(w.api, 'GET', '/api/v1/org/audit-log?limit=100', undefined, as(other));
    expect(theirAudit.json.data.filter((e) => e.details.rule_id).map((e) => [e.details.rule_id, e.action]).sort()).toEqual([
      [mine.id, 'review.status_changed'],
      [mine.id, 'review.tagged'],
    ]);
    expect(appKey).toContain(appId);
  });

  test('the queue: a review gone since it was queued is dropped; a version queued again after its rules fired does not act twice', async () => {
    const owner = await newOwner('rulesqueue');
    const { appId } = await feedApp(owner);
    const tag = await newTag(owner, 'once');
    const rule = await newRule(owner, { name: 'Once', actions: [{ type: 'tag', tag_id: tag }, { type: 'set_status', status: 'needs_reply' }] });
    const [id] = await ingest(appId, [{ content: uniq('Any review'), rating: 3 }]);
    expect((await firings(id)).map((f) => f.rule_id)).toEqual([rule.id]);
    const db = await getDb();
    const ruleEntries = async () =>
      Number((await sql<{ n: string }>`select count(*) as n from audit_log where org_id = ${owner.orgId} and details ->> 'rule_id' = ${rule.id}`.execute(db)).rows[0].n);
    const before = await ruleEntries();
    expect(before).toBe(2);
    // A member undoes what the rule did: acting again would show.
    expect((await api(owner, 'PATCH', `/api/v1/org/reviews/${id}`, { status: 'done', tags_remove: [tag] })).status).toBe(200);
    // Nothing queues one version twice today (the triggers queue a new version once); firedAlready is what keeps a rule
    // from acting again if one ever is. And a review deleted after it was queued (rule_queue has no foreign key,
    // migration 0044): the pass drops its row.
    await sql`insert into rule_queue (review_id, review_version) values (${Number(id)}, 0), (${9_000_000_000_000}, 0)`.execute(db);
    await rulesSettled();
    expect(await firings(id)).toHaveLength(1);
    expect(await ruleEntries()).toBe(before);
    expect((await workflowOfReviews(owner.orgId, [id])).get(id)).toMatchObject({ status: 'done', tags: [] });
  });

  test("a poll of this process wakes the job: its reviews are evaluated without waiting for the job's next look", async () => {
    // The job's loop with a minute between looks: only the poll's wake (server/monitor/ingest.ts) can run the pass soon.
    await stopRules?.();
    stopRules = undefined;
    const stopSlow = startRulesLoop(60_000);
    try {
      const owner = await newOwner('ruleswake');
      const { appId } = await feedApp(owner);
      const tag = await newTag(owner, 'woken');
      await newRule(owner, { name: 'Woken', conditions: { ratings: [1] }, actions: [{ type: 'tag', tag_id: tag }] });
      const published = w.feed.publish(appId, 'us', { title: 'Woken', content: 'Stopped working after the update', rating: 1, updated: new Date() });
      await pollAppNow({ store: 'apple_app_store', appId });
      const stored = Date.now();
      const id = String((await (await getDb()).selectFrom('reviews').select('id').where('store_review_id', '=', published.id).executeTakeFirstOrThrow()).id);
      while ((await firings(id)).length === 0) {
        expect(Date.now() - stored, 'evaluated before the loop would have looked').toBeLessThan(10_000);
        await new Promise((res) => setTimeout(res, 10));
      }
      expect(await tagsOf(owner.orgId, [id])).toEqual([[tag]]);
    } finally {
      await stopSlow();
      stopRules = await rulesJob.start();
    }
  });

  test('rules run in order; stop_after ends them; a disabled rule does not run; an edit is evaluated again; within a second of the poll', async () => {
    const owner = await newOwner('rulesorder');
    const { appId } = await feedApp(owner);
    const [first, second, third, edited] = [await newTag(owner, 'first'), await newTag(owner, 'second'), await newTag(owner, 'third'), await newTag(owner, 'edited')];
    const a = await newRule(owner, { name: 'A', conditions: { ratings: [1] }, actions: [{ type: 'tag', tag_id: first }] });
    const b = await newRule(owner, { name: 'B', conditions: { ratings: [1, 2] }, actions: [{ type: 'tag', tag_id: second }], stop_after: true });
    const c = await newRule(owner, { name: 'C', actions: [{ type: 'tag', tag_id: third }] });
    const off = await newRule(owner, { name: 'Off', enabled: false, actions: [{ type: 'set_status', status: 'done' }] });
    const onEdit = await newRule(owner, { name: 'Edit', conditions: { keywords_any: ['update'] }, actions: [{ type: 'tag', tag_id: edited }] });

    // Within a second: from the moment the poll stored it to its firing, with the job's own timing.
    const published = w.feed.publish(appId, 'us', { title: 'Bad', content: 'Broken since yesterday', rating: 1, updated: new Date() });
    const low = w.feed.publish(appId, 'us', { title: 'Meh', content: 'Could be better', rating: 2, updated: new Date(Date.now() + 1) });
    const high = w.feed.publish(appId, 'us', { title: 'Nice', content: 'Works', rating: 5, updated: new Date(Date.now() + 2) });
    await pollAppNow({ store: 'apple_app_store', appId });
    const stored = Date.now();
    const db = await getDb();
    const idOf = async (storeId: string) => String((await db.selectFrom('reviews').select('id').where('store_review_id', '=', storeId).executeTakeFirstOrThrow()).id);
    const id = await idOf(published.id);
    for (;;) {
      if ((await firings(id)).length > 0) break;
      expect(Date.now() - stored, 'evaluated within a second of being stored').toBeLessThan(1000);
      await new Promise((res) => setTimeout(res, 10));
    }
    expect(Date.now() - stored).toBeLessThan(1000);
    await rulesSettled();
    const [lowId, highId] = [await idOf(low.id), await idOf(high.id)];

    expect((await firings(id)).map((f) => f.rule_id)).toEqual([a.id, b.id]);
    expect((await firings(lowId)).map((f) => f.rule_id)).toEqual([b.id]);
    expect((await firings(highId)).map((f) => f.rule_id)).toEqual([c.id]);
    expect(await tagsOf(owner.orgId, [id, lowId, highId])).toEqual([[first, second].sort(), [second], [third]]);
    expect((await workflowOfReviews(owner.orgId, [highId])).get(highId)?.status).not.toBe('done');

    // Moving C first: it runs before B's stop.
    expect((await api(owner, 'PATCH', `/api/v1/org/rules/${c.id}`, { position: 0 })).status).toBe(200);
    // The reviewer edits: a new version, evaluated again (C now first, A and B again, the edit's own keyword).
    w.feed.edit(appId, 'us', published.id, { content: 'Broken since the update', updated: new Date(Date.now() + 1000) });
    await pollAppNow({ store: 'apple_app_store', appId });
    await rulesSettled();
    const all = await firings(id);
    expect(all.filter((f) => f.review_version === 1).map((f) => f.rule_id)).toEqual([c.id, a.id, b.id]);
    expect(all.filter((f) => f.review_version === 0).map((f) => f.rule_id)).toEqual([a.id, b.id]);
    // B stopped before the edit rule; stop_after off, it tags the edited review.
    expect((await api(owner, 'PATCH', `/api/v1/org/rules/${b.id}`, { stop_after: false })).status).toBe(200);
    w.feed.edit(appId, 'us', published.id, { content: 'Broken since the update, still', updated: new Date(Date.now() + 2000) });
    await pollAppNow({ store: 'apple_app_store', appId });
    await rulesSettled();
    expect((await firings(id)).filter((f) => f.review_version === 2).map((f) => f.rule_id)).toEqual([c.id, a.id, b.id, onEdit.id]);
    expect(await tagsOf(owner.orgId, [id])).toEqual([[first, second, third, edited].sort()]);

    // Fired this week: one per version a rule matched; a firing older than 7 days is not counted.
    await sql`update rule_firings set fired_at = now() - interval '8 days' where rule_id = ${c.id} and review_id = ${Number(highId)}`.execute(db);
    const counts = Object.fromEntries((await api<Rule[]>(owner, 'GET', '/api/v1/org/rules')).json.data.map((r) => [r.name, r.fired_this_week]));
    expect(counts).toEqual({ A: 3, B: 4, C: 2, Off: 0, Edit: 1 });
    expect(off.enabled).toBe(false);
  });
});

describe('the dry run', () => {
  test('the newest 200 reviews, keywords in a translation, what would happen, an earlier stop_after rule; nothing written', async () => {
    const owner = await newOwner('rulesdry');
    const member = await memberOf(owner, 'member');
    // 206 reviews: the 5 oldest mention refunds too, but they are beyond the newest 200.
    const seeds = [
      ...Array.from({ length: 5 }, (_, i) => ({ body: `Old refund request ${i}`, rating: 1, hoursAgo: 300 + i })),
      ...Array.from({ length: 200 }, (_, i) => ({ body: i % 10 === 0 ? `Please refund me ${i}` : `All good ${i}`, rating: i % 10 === 0 ? 1 : 5, hoursAgo: i / 10 })),
    ];
    const appKey = await appWith(owner, 'apple_app_store', seeds);
    const db = await getDb();
    // A German review (newest) whose English translation says "refund".
    const german = await db
      .insertInto('reviews')
      .values({ app_key: appKey, store: 'apple_app_store', store_review_id: `de-${Date.now()}`, country: 'de', language: 'de', author_name: 'Jonas', title: null, body: 'Ich will mein Geld zurück', rating: 2, app_version: '1.0', written_at: null, updated_at: new Date(Date.now() + 60_000), text_language: 'de', reply_text: null, reply_updated_at: null, permalink: null, sentiment: null, sentiment_score: null })
      .returning('id')
      .executeTakeFirstOrThrow();
    await db.insertInto('review_translations').values({ review_id: german.id, review_version: 0, language: 'en', provider: 'test', title: null, body: 'I want my money back, a refund' }).execute();
    const tag = await newTag(owner, 'Refund');
    const tpl = await template(owner, appKey);
    const stopper = await newRule(owner, { name: 'Stopper', conditions: { keywords_any: ['please'] }, actions: [{ type: 'set_status', status: 'done' }], stop_after: true });
    const rule = await newRule(owner, {
      name: 'Refunds',
      enabled: false,
      conditions: { keywords_any: ['refunds'] },
      actions: [{ type: 'tag', tag_id: tag }, { type: 'reply', template_id: tpl, mode: 'auto', daily_cap: 3 }],
    });
    await rulesSettled();

    const r = await api<DryRun>(member, 'POST', `/api/v1/org/rules/${rule.id}/test`, {});
    expect(r.status, r.text).toBe(200);
    expect(r.json.data).toMatchObject({ rule_id: rule.id, checked: 200, matched: 21 });
    const first = r.json.data.reviews[0];
    expect(first.review_id).toBe(String(german.id));
    expect(first.would).toEqual([expect.stringMatching(/^tag it “Refund \d+”$/), expect.stringMatching(/reply with “T \d+” \(sent to the store, within 3 a day\)/)]);
    expect(first.stopped_by).toBeNull();
    const stopped = r.json.data.reviews.filter((x) => x.stopped_by);
    expect(stopped).toHaveLength(20);
    expect(stopped[0].stopped_by).toEqual({ id: stopper.id, name: 'Stopper' });
    expect(stopped[0].would[0]).toMatch(/the earlier rule “Stopper” matches it first/);
    expect(r.json.data.reviews.some((x) => x.excerpt.startsWith('Old refund'))).toBe(false);

    // Nothing written: no firing, no tag, no reply, no status.
    const wrote = await sql<{ firings: number; tags: number; replies: number; statuses: number }>`
      select (select count(*)::int from rule_firings where org_id = ${owner.orgId}) as firings,
             (select count(*)::int from review_tags where org_id = ${owner.orgId}) as tags,
             (select count(*)::int from replies where org_id = ${owner.orgId}) as replies,
             (select count(*)::int from review_workflow where org_id = ${owner.orgId}) as statuses`.execute(db);
    expect(wrote.rows[0]).toEqual({ firings: 0, tags: 0, replies: 0, statuses: 0 });
  });
});
