// The /dashboard overview through the real route on a real database (PGlite and PostgreSQL): the figures of a seeded
// app (review averages over 7 and 30 days against the periods before, volume, 1–2★ share, unanswered, median reply
// time, the store's own rating) add up and follow edits of the reviews (the triggers of migration 0038); "Needs
// attention" lists unanswered 1–2★ reviews, open alerts, paused and failing destinations and refused store
// credentials, each linking to the dashboard page that fixes it; the setup checklist's state; and nobody sees another
// organisation's overview, a removed member included.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { getDb } from '@/server/db/client';
import { memberOf, newOwner, type SignedInUser } from '../helpers/orgs';
import { startApiWorld, type ApiWorld } from '../helpers/apiWorld';
import { call } from '../helpers/request';

type Period = { from: string; to: string; reviews: number; average: number | null; previous_reviews: number; previous_average: number | null; change: number | null; low: number; low_share: number | null };
type Term = { term: string; reviews: number; previous_reviews: number; href: string };
type OverviewApp = {
  key: string;
  title: string;
  store_rating: { rating: number | null; ratings_count: number | null; change_7d: number | null; as_of: string } | null;
  review_average: { last_7_days: Period; last_30_days: Period };
  unanswered_30d: number;
  unanswered_negative_30d: number;
  reply_time: { median_seconds: number | null; replies: number };
  terms: { rising: Term[]; critical: Term[] } | null;
  links: { reviews: string; trends: string; unanswered: string };
};
type Attention = { kind: string; title: string; detail: string; href: string; action: string; app_key: string | null };
type Overview = { setup: { apps: boolean; channel: boolean; team: boolean; complete: boolean }; apps: OverviewApp[]; attention: Attention[]; terms_pending: boolean };

let w: ApiWorld;
beforeAll(async () => {
  w = await startApiWorld({});
}, 60_000);
afterAll(() => w.close());

let n = 0;
const uniq = () => `${Date.now().toString(36)}${++n}`;
const DAY = 86_400_000;
const HOUR = 3_600_000;
const midnight = () => {
  const now = new Date();
  return Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
};
const dayOf = (t: number) => new Date(t).toISOString().slice(0, 10);

const overview = (token: string) => call<Overview>(w.api, 'GET', '/api/v1/org/overview', undefined, { token });

async function addApp(owner: SignedInUser, title: string, appId = String(1_700_000_000 + Math.floor(Math.random() * 1e8))): Promise<string> {
  const db = await getDb();
  const key = `apple_app_store__${appId}`;
  await db.insertInto('apps').values({ key, store: 'apple_app_store', app_id: appId, title, icon_url: null, store_url: null, developer: null }).onConflict((oc) => oc.doNothing()).execute();
  await db.insertInto('org_apps').values({ org_id: owner.orgId, app_key: key, countries: ['us'], added_by: owner.userId, added_by_email: owner.email }).execute();
  return key;
}

type Seed = { at: number; rating: number; repliedAfter?: number; body?: string };
async function addReviews(key: string, seeds: Seed[]): Promise<void> {
  const db = await getDb();
  await db
    .insertInto('reviews')
    .values(
      seeds.map((s) => ({
        app_key: key, store: 'apple_app_store', store_review_id: `o${uniq()}`, country: 'us', language: 'en', author_name: 'A', title: null,
        body: s.body ?? 'It works', rating: s.rating, app_version: '1.0', updated_at: new Date(s.at), written_at: new Date(s.at),
        reply_text: s.repliedAfter === undefined ? null : 'Thanks', reply_updated_at: s.repliedAfter === undefined ? null : new Date(s.at + s.repliedAfter),
        sentiment: null, sentiment_score: null, permalink: null,
      })),
    )
    .execute();
}

// Days before today (UTC) at noon, and today at midnight (never in the future).
const T = midnight();
const ago = (days: number) => (days === 0 ? T : T - days * DAY + 12 * HOUR);
const SEEDS: Seed[] = [
  { at: ago(0), rating: 5 },
  { at: ago(0), rating: 1, body: 'Crashes on open' },
  { at: ago(3), rating: 4 },
  { at: ago(3), rating: 1, body: 'Crashes on open' },
  { at: ago(3), rating: 2, repliedAfter: HOUR },
  { at: ago(10), rating: 5, repliedAfter: 3 * HOUR },
  { at: ago(10), rating: 5 },
  { at: ago(20), rating: 3 },
  { at: ago(40), rating: 2 },
  { at: ago(40), rating: 4 },
  { at: ago(70), rating: 1 },
];

/** The dashboard pages a link may lead to (each a file under pages/dashboard). */
const PAGES = fs.readdirSync(path.join(process.cwd(), 'pages/dashboard')).filter((f) => f.endsWith('.tsx')).map((f) => (f === 'index.tsx' ? '/dashboard' : `/dashboard/${f.replace(/\.tsx$/, '')}`));
const leadsToAPage = (href: string) => PAGES.includes(href.split('?')[0]) || /^\/dashboard\/apps\/[^/?]+$/.test(href);

describe('GET /api/v1/org/overview', () => {
  test("an app's figures: review averages over 7 and 30 days against the periods before, 1–2★ share, unanswered, reply time, store rating", async () => {
    const owner = await newOwner();
    const key = await addApp(owner, 'Habit Hero');
    const quiet = await addApp(owner, 'Quiet App');
    await addReviews(key, SEEDS);
    const db = await getDb();
    await db
      .insertInto('store_rating_snapshots')
      .values([
        { app_key: key, country: 'us', day: dayOf(T), rating: 4.6, ratings_count: 18_000, histogram: null },
        { app_key: key, country: 'us', day: dayOf(T - 7 * DAY), rating: 4.5, ratings_count: 17_500, histogram: null },
      ])
      .execute();

    const r = await overview(owner.token);
    expect(r.status, r.text).toBe(200);
    const data = r.json.data;
    expect(data.apps.map((a) => a.title)).toEqual(['Habit Hero', 'Quiet App']);
    const app = data.apps[0];
    expect(app.review_average.last_7_days).toEqual({
      from: dayOf(T - 6 * DAY), to: dayOf(T), reviews: 5, average: 2.6, previous_reviews: 2, previous_average: 5, change: -2.4, low: 3, low_share: 0.6,
    });
    expect(app.review_average.last_30_days).toEqual({
      from: dayOf(T - 29 * DAY), to: dayOf(T), reviews: 8, average: 3.25, previous_reviews: 2, previous_average: 3, change: 0.25, low: 3, low_share: 0.38,
    });
    expect(app.unanswered_30d).toBe(6);
    expect(app.unanswered_negative_30d).toBe(2);
    expect(app.reply_time).toEqual({ median_seconds: 2 * 3600, replies: 2 });
    expect(app.store_rating).toMatchObject({ rating: 4.6, ratings_count: 18_000 });
    expect(app.store_rating!.change_7d).toBeCloseTo(0.1, 5);
    expect(app.links.trends).toBe(`/dashboard/apps/${encodeURIComponent(key)}`);

    // An app without reviews or snapshots: zeros and nulls, not made-up figures.
    const none = data.apps[1];
    expect(none.key).toBe(quiet);
    expect(none.store_rating).toBeNull();
    expect(none.review_average.last_7_days).toMatchObject({ reviews: 0, average: null, previous_average: null, change: null, low_share: null });
    expect(none.reply_time).toEqual({ median_seconds: null, replies: 0 });

    // Edits reach the figures (the daily counters follow inserts, updates and deletes of reviews).
    await db.updateTable('reviews').set({ reply_text: 'Sorry, fixed in 1.1', reply_updated_at: new Date() }).where('app_key', '=', key).where('rating', '=', 1).where('updated_at', '=', new Date(ago(0))).execute();
    await db.updateTable('reviews').set({ rating: 2 }).where('app_key', '=', key).where('rating', '=', 4).where('updated_at', '=', new Date(ago(3))).execute();
    await db.deleteFrom('reviews').where('app_key', '=', key).where('rating', '=', 3).execute();
    const after = (await overview(owner.token)).json.data.apps[0];
    expect(after.review_average.last_7_days).toMatchObject({ reviews: 5, average: 2.2, low: 4, low_share: 0.8 });
    expect(after.review_average.last_30_days).toMatchObject({ reviews: 7, average: 3 });
    expect(after.unanswered_30d).toBe(4);
    expect(after.unanswered_negative_30d).toBe(2);
  });

  test('the terms of the last 7 days, each linking to its reviews in the inbox', async () => {
    const owner = await newOwner();
    const key = await addApp(owner, 'Termy');
    // The crash burst: "crashes" in 2 of 12 reviews the week before, in 12 of 24 (all 1★) this week.
    const many = (count: number, seed: Seed) => Array.from({ length: count }, () => seed);
    await addReviews(key, [
      ...many(10, { at: ago(9), rating: 5, body: 'Lovely calendar and reminders' }),
      ...many(2, { at: ago(10), rating: 3, body: 'Crashes sometimes' }),
      ...many(12, { at: ago(1), rating: 1, body: 'Crashes on open, cannot use it at all' }),
      ...many(12, { at: ago(2), rating: 5, body: 'Lovely calendar and reminders' }),
    ]);
    let data: Overview | undefined;
    // Terms not counted within the answer's wait come in a later answer (terms_pending).
    for (let i = 0; i < 20 && (!data || data.terms_pending); i++) data = (await overview(owner.token)).json.data;
    expect(data!.terms_pending).toBe(false);
    const terms = data!.apps[0].terms!;
    // The word or a phrase with it, as the term statistics group them (server/insights/terms.ts).
    expect(terms.rising.map((t) => t.term).join(' | ')).toMatch(/crash/);
    expect(terms.critical.map((t) => t.term).join(' | ')).toMatch(/crash/);
    for (const t of [...terms.rising, ...terms.critical]) {
      expect(t.href).toMatch(new RegExp(`^/dashboard/reviews\\?app=${key}&q=`));
      expect(leadsToAPage(t.href)).toBe(true);
    }
  });

  test('"Needs attention": unanswered 1–2★ reviews, open alerts, paused and failing destinations, refused credentials, each with a link', async () => {
    const owner = await newOwner();
    const key = await addApp(owner, 'Fixit');
    await addReviews(key, SEEDS);
    const db = await getDb();
    await db.insertInto('spike_episodes').values({ app_key: key, scope_kind: 'country', scope_value: 'de', since: new Date(ago(1)), details: '{}' }).execute();
    await db.insertInto('spike_episodes').values({ app_key: key, scope_kind: 'app', scope_value: '', since: new Date(ago(9)), details: '{}', closed_at: new Date(ago(8)) }).execute();
    const dest = (status: 'active' | 'paused', failures: number, label: string) => ({
      id: `dst_ov${uniq()}`, org_id: owner.orgId, platform: 'slack', target_enc: 'x', target_hash: `h${uniq()}`, target_hint: 'hooks.slack.com …abcd', filters: '{}', status, consecutive_failures: failures, label,
      last_error: failures ? 'Slack answered 500' : null,
    });
    await db.insertInto('destinations').values([dest('paused', 0, '#paused'), dest('active', 3, '#failing'), dest('active', 0, '#fine')]).execute();
    await db.updateTable('org_apps').set({ credentials_enc: 'sealed', credentials_kind: 'app_store_connect', credentials_label: 'Key ABC', credentials_checked_at: new Date() }).where('org_id', '=', owner.orgId).execute();
    await db.insertInto('monitored_sources').values({ app_key: key, kind: 'appstore_connect', status: 'paused', status_reason: 'App Store Connect refused the key (401): create a new one.' }).execute();

    const data = (await overview(owner.token)).json.data;
    const kinds = data.attention.map((a) => a.kind);
    expect(kinds.sort()).toEqual(['alert', 'credentials', 'destination', 'destination', 'unanswered_negative']);
    const by = (kind: string) => data.attention.filter((a) => a.kind === kind);
    expect(by('unanswered_negative')[0]).toMatchObject({ title: '2 unanswered 1–2★ reviews of Fixit', href: `/dashboard/reviews?app=${key}&rating=1,2&replied=false&from=${dayOf(T - 29 * DAY)}` });
    expect(by('alert')[0]).toMatchObject({ title: 'Spike alert: Fixit in DE', href: `/dashboard/reviews?app=${key}&rating=1,2&from=${dayOf(ago(1))}&country=de` });
    expect(by('destination').map((d) => d.title).sort()).toEqual(['Failing (3 attempts in a row): Slack · #failing', 'Paused: Slack · #paused']);
    expect(by('credentials')[0]).toMatchObject({ href: '/dashboard/apps', detail: 'App Store Connect refused the key (401): create a new one.' });
    for (const a of data.attention) {
      expect(leadsToAPage(a.href), a.href).toBe(true);
      expect(a.action.length).toBeGreaterThan(0);
    }
  });

  test('the setup checklist: an app, a channel, the team', async () => {
    const owner = await newOwner();
    const state = async () => (await overview(owner.token)).json.data;
    expect(await state()).toMatchObject({ setup: { apps: false, channel: false, team: false, complete: false }, apps: [], attention: [] });
    await addApp(owner, 'First');
    expect((await state()).setup).toEqual({ apps: true, channel: false, team: false, complete: false });
    const db = await getDb();
    await db.insertInto('destinations').values({ id: `dst_ov${uniq()}`, org_id: owner.orgId, platform: 'slack', target_enc: 'x', target_hash: `h${uniq()}`, target_hint: 'hooks.slack.com …abcd', filters: '{}' }).execute();
    expect((await state()).setup).toEqual({ apps: true, channel: true, team: false, complete: false });
    await db.insertInto('org_invitations').values({ id: `inv_ov${uniq()}`, org_id: owner.orgId, email: `new-${uniq()}@example.com`, role: 'member', invited_by: owner.userId, token_hash: `t${uniq()}`, expires_at: new Date(Date.now() + DAY) }).execute();
    expect((await state()).setup).toEqual({ apps: true, channel: true, team: true, complete: true });
  });

  test("nobody sees another organisation's overview; a removed member sees it no more", async () => {
    const a = await newOwner('a');
    const b = await newOwner('b');
    // Both follow the same app: its reviews are the app's, but alerts of the app are for both, and what is the
    // organisation's (destinations, credentials) stays its own.
    const shared = String(1_800_000_000 + Math.floor(Math.random() * 1e8));
    const key = await addApp(a, 'Shared', shared);
    await addApp(b, 'Shared', shared);
    const onlyA = await addApp(a, 'Only A');
    await addReviews(key, SEEDS);
    const db = await getDb();
    await db.insertInto('destinations').values({ id: `dst_ov${uniq()}`, org_id: a.orgId, platform: 'slack', target_enc: 'x', target_hash: `h${uniq()}`, target_hint: 'hooks.slack.com …abcd', filters: '{}', status: 'paused' }).execute();
    await db.updateTable('org_apps').set({ credentials_enc: 'sealed', credentials_kind: 'app_store_connect', credentials_label: 'Key', credentials_checked_at: new Date() }).where('org_id', '=', a.orgId).execute();
    await db.insertInto('monitored_sources').values({ app_key: key, kind: 'appstore_connect', status: 'paused', status_reason: 'refused' }).execute();

    const ofA = (await overview(a.token)).json.data;
    const ofB = (await overview(b.token)).json.data;
    expect(ofA.apps.map((x) => x.key).sort()).toEqual([key, onlyA].sort());
    expect(ofB.apps.map((x) => x.key)).toEqual([key]);
    expect(ofB.apps[0].review_average).toEqual(ofA.apps.find((x) => x.key === key)!.review_average);
    expect(ofA.attention.map((x) => x.kind).sort()).toEqual(['credentials', 'destination', 'unanswered_negative']);
    expect(ofB.attention.map((x) => x.kind)).toEqual(['unanswered_negative']);
    expect(ofB.setup).toMatchObject({ channel: false });

    const member = await memberOf(a, 'member');
    expect((await overview(member.token)).json.data.apps.map((x) => x.key).sort()).toEqual([key, onlyA].sort());
    const removed = await call(w.api, 'DELETE', `/api/v1/org/members/${member.userId}`, undefined, { token: a.token });
    expect(removed.status, removed.text).toBe(200);
    expect((await overview(member.token)).status).toBe(401);
    expect((await call(w.api, 'GET', '/api/v1/org/overview')).status).toBe(401);
  });
});
