// The support queue (issue 32) through the real routes on a real database (PGlite and PostgreSQL): a review's status,
// assignee, tags and notes; bulk changes of 500 reviews in one transaction; tags and their weekly counts; the inbox's
// status/tag/assignee filters and its count; tags in the CSV export, the public API, the webhook payload and chat
// messages; a destination filtered by a tag; the statuses a published reply and an edit set; and nothing of another
// organisation (its review and tag ids are 404), nor a removed member as an assignee.
import { describe, expect, test } from 'vitest';
import { sql } from 'kysely';
import { getDb } from '@/server/db/client';
import { createDestination } from '@/server/monitor/service';
import { onReplyPublished, onRepliesShown, onReviewsEdited } from '@/server/workflow/edits';
import { workflowOfReviews } from '@/server/workflow/data';
import { formatFor } from '@/server/destinations/format';
import { EDITED_AFTER_REPLY_REASON } from '@/shared/workflow';
import { ALL_PLATFORMS } from '@/shared/platforms';
import type { ReviewMessageInput } from '@/server/destinations/types';
import { memberOf, newOwner, type SignedInUser } from '../helpers/orgs';
import { appWith } from '../helpers/seedReviews';
import { setUpStoreApi } from '../helpers/apiWorld';
import { call } from '../helpers/request';

const w = setUpStoreApi();

type Tag = { id: string; name: string; color: string; reviews: number };
type Review = {
  id: string;
  content_body: string;
  status: string;
  status_reason: string | null;
  assignee: { id: string; email: string } | null;
  tags: Array<{ id: string; name: string; color: string }>;
  notes_count: number;
  notes?: Array<{ text: string; by: string }>;
  history?: Array<{ version: number; body: string }>;
};

const api = <T>(u: SignedInUser, method: string, path: string, body?: unknown) => call<T>(w.api, method, path, body, { token: u.token });

async function newTag(u: SignedInUser, name: string, color = '#d93025'): Promise<Tag> {
  const r = await api<Tag>(u, 'POST', '/api/v1/org/tags', { name, color });
  expect(r.status, r.text).toBe(201);
  return r.json.data;
}

async function reviewIds(appKey: string): Promise<string[]> {
  const db = await getDb();
  const rows = await db.selectFrom('reviews').select('id').where('app_key', '=', appKey).orderBy('updated_at', 'desc').orderBy('id', 'desc').execute();
  return rows.map((r) => String(r.id));
}

async function inbox(u: SignedInUser, query: string) {
  const r = await api<Review[]>(u, 'GET', `/api/v1/org/reviews${query}`);
  expect(r.status, r.text).toBe(200);
  const body = r.json as unknown as { data: Review[]; total: number; total_is_estimate: boolean };
  return body;
}

describe('one review: status, assignee, tags, notes', () => {
  test('PATCH and GET a review, notes, tags CRUD; another organisation gets 404 for every id; a removed member cannot be assigned', async () => {
    const owner = await newOwner();
    const member = await memberOf(owner, 'member');
    const leaver = await memberOf(owner, 'member', 'leaver');
    const stranger = await newOwner('stranger');
    const key = await appWith(owner, 'apple_app_store', [{ body: 'Refund please', rating: 1 }, { body: 'Love it', rating: 5, reply: 'Thanks!', hoursAgo: 1 }]);
    const [refund, love] = await reviewIds(key);
    const billing = await newTag(member, 'Billing');

    // Defaults: nobody acted on it (new), or the store shows a reply (replied).
    const before = await api<Review>(member, 'GET', `/api/v1/org/reviews/${refund}`);
    expect(before.status, before.text).toBe(200);
    expect(before.json.data).toMatchObject({ status: 'new', assignee: null, tags: [], notes_count: 0, notes: [], history: [] });
    expect((await api<Review>(member, 'GET', `/api/v1/org/reviews/${love}`)).json.data.status).toBe('replied');

    const patched = await api<Review>(member, 'PATCH', `/api/v1/org/reviews/${refund}`, { status: 'needs_reply', assignee_id: member.userId, tags_add: [billing.id] });
    expect(patched.status, patched.text).toBe(200);
    expect(patched.json.data).toMatchObject({ status: 'needs_reply', status_reason: null, assignee: { id: member.userId, email: member.email }, tags: [{ id: billing.id, name: 'Billing' }] });

    const note = await api<{ id: string; text: string; by: string }>(member, 'POST', `/api/v1/org/reviews/${refund}/notes`, { text: 'Asked finance.' });
    expect(note.status, note.text).toBe(201);
    expect(note.json.data).toMatchObject({ text: 'Asked finance.', by: member.email });
    const notes = await api<Array<{ text: string }>>(owner, 'GET', `/api/v1/org/reviews/${refund}/notes`);
    expect(notes.json.data.map((n) => n.text)).toEqual(['Asked finance.']);
    expect((await api<Review>(owner, 'GET', `/api/v1/org/reviews/${refund}`)).json.data.notes_count).toBe(1);
    expect((await api(member, 'POST', `/api/v1/org/reviews/${refund}/notes`, { text: '   ' })).status).toBe(400);

    // Tags: unique names whatever their case, admins rename and delete.
    expect((await api(member, 'POST', '/api/v1/org/tags', { name: 'billing', color: '#000000' })).status).toBe(409);
    expect((await api(member, 'POST', '/api/v1/org/tags', { name: 'x', color: 'red' })).status).toBe(400);
    expect((await api(member, 'PATCH', `/api/v1/org/tags/${billing.id}`, { name: 'Money' })).status).toBe(403);
    const renamed = await api<Tag>(owner, 'PATCH', `/api/v1/org/tags/${billing.id}`, { name: 'Money', color: '#ABCDEF' });
    expect(renamed.json.data).toMatchObject({ name: 'Money', color: '#abcdef' });
    const listed = await api<Tag[]>(member, 'GET', '/api/v1/org/tags');
    expect(listed.json.data.map((t) => [t.name, t.reviews])).toEqual([['Money', 1]]);

    // Another organisation: its reviews, tags and members are not found, and nothing changed.
    expect((await api(stranger, 'GET', `/api/v1/org/reviews/${refund}`)).status).toBe(404);
    expect((await api(stranger, 'PATCH', `/api/v1/org/reviews/${refund}`, { status: 'done' })).status).toBe(404);
    expect((await api(stranger, 'GET', `/api/v1/org/reviews/${refund}/notes`)).status).toBe(404);
    expect((await api(stranger, 'POST', `/api/v1/org/reviews/${refund}/notes`, { text: 'hi' })).status).toBe(404);
    expect((await api(stranger, 'PATCH', `/api/v1/org/tags/${billing.id}`, { name: 'Mine' })).status).toBe(404);
    expect((await api(stranger, 'DELETE', `/api/v1/org/tags/${billing.id}`)).status).toBe(404);
    expect((await api(stranger, 'GET', `/api/v1/org/apps/${key}/tags`)).status).toBe(404);
    const strangerKey = await appWith(stranger, 'apple_app_store', [{ body: 'theirs' }]);
    const [theirs] = await reviewIds(strangerKey);
    const theirTag = await newTag(stranger, 'Theirs');
    expect((await api(owner, 'PATCH', `/api/v1/org/reviews/${refund}`, { tags_add: [theirTag.id] })).status).toBe(404);
    expect((await api(owner, 'PATCH', `/api/v1/org/reviews/${theirs}`, { status: 'done' })).status).toBe(404);
    expect((await api(owner, 'PATCH', `/api/v1/org/reviews/${refund}`, { assignee_id: stranger.userId })).status).toBe(422);
    expect((await api<Review>(owner, 'GET', `/api/v1/org/reviews/${refund}`)).json.data.tags.map((t) => t.name)).toEqual(['Money']);

    // A removed member is no longer someone to assign.
    expect((await api(owner, 'PATCH', `/api/v1/org/reviews/${refund}`, { assignee_id: leaver.userId })).status).toBe(200);
    const removed = await api(owner, 'DELETE', `/api/v1/org/members/${leaver.userId}`);
    expect(removed.status, removed.text).toBe(200);
    const refused = await api(owner, 'PATCH', `/api/v1/org/reviews/${love}`, { assignee_id: leaver.userId });
    expect(refused.status, refused.text).toBe(422);
    expect(refused.json.error.message).toMatch(/not a member/);
    expect((await api<Review>(owner, 'GET', `/api/v1/org/reviews/${refund}`)).json.data.assignee).toBeNull();
    // The removed member is signed out (as everywhere: tests/api/overview.test.ts): their token reads nothing more.
    expect((await api(leaver, 'GET', `/api/v1/org/reviews/${refund}`)).status).toBe(401);

    expect((await api(member, 'PATCH', `/api/v1/org/reviews/${refund}`, {})).status).toBe(400);
    expect((await api(member, 'PATCH', `/api/v1/org/reviews/${refund}`, { status: 'closed' })).status).toBe(400);
    expect((await api(member, 'PATCH', `/api/v1/org/reviews/${refund}`, { priority: 1 })).status).toBe(400);

    // Deleting a tag takes it off every review; the audit log names who did what.
    expect((await api(member, 'DELETE', `/api/v1/org/tags/${billing.id}`)).status).toBe(403);
    expect((await api(owner, 'DELETE', `/api/v1/org/tags/${billing.id}`)).status).toBe(200);
    expect((await api<Review>(owner, 'GET', `/api/v1/org/reviews/${refund}`)).json.data.tags).toEqual([]);
    const actions = await sql<{ action: string; actor_email: string | null }>`
      select action, actor_email from audit_log where org_id = ${owner.orgId} order by id`.execute(await getDb());
    expect(actions.rows.map((a) => a.action)).toEqual(expect.arrayContaining(['tag.created', 'review.status_changed', 'review.assigned', 'review.tagged', 'review.note_added', 'tag.deleted']));
    expect(actions.rows.find((a) => a.action === 'review.tagged')?.actor_email).toBe(member.email);
  });

  test("an app's reviews per tag per week", async () => {
    const owner = await newOwner();
    const key = await appWith(owner, 'google_play_store', [{ body: 'a', hoursAgo: 1 }, { body: 'b', hoursAgo: 2 }, { body: 'c', hoursAgo: 24 * 7 * 3 }]);
    const ids = await reviewIds(key);
    const bug = await newTag(owner, 'Bug');
    await newTag(owner, 'Praise', '#188038');
    expect((await api(owner, 'POST', '/api/v1/org/reviews/bulk', { ids, set: { tags_add: [bug.id] } })).status).toBe(200);
    const r = await api<{ weeks: string[]; tags: Array<{ name: string; counts: number[] }> }>(owner, 'GET', `/api/v1/org/apps/${key}/tags?weeks=6`);
    expect(r.status, r.text).toBe(200);
    expect(r.json.data.weeks).toHaveLength(6);
    const counts = r.json.data.tags.find((t) => t.name === 'Bug')!.counts;
    expect(counts.reduce((a, b) => a + b, 0)).toBe(3);
    expect(r.json.data.tags.find((t) => t.name === 'Praise')!.counts).toEqual([0, 0, 0, 0, 0, 0]);
    expect((await api(owner, 'GET', `/api/v1/org/apps/${key}/tags?weeks=0`)).status).toBe(400);
  });
});

describe('POST /api/v1/org/reviews/bulk', () => {
  test('500 reviews in one transaction, 501 refused, another organisation\'s id refuses the whole change', async () => {
    const owner = await newOwner();
    const stranger = await newOwner('stranger');
    const key = await appWith(owner, 'apple_app_store', Array.from({ length: 501 }, (_, i) => ({ body: `bulk ${i}`, hoursAgo: i / 10 })));
    const ids = await reviewIds(key);
    const [theirs] = await reviewIds(await appWith(stranger, 'apple_app_store', [{ body: 'theirs' }]));
    const urgent = await newTag(owner, 'Urgent');

    const tooMany = await api(owner, 'POST', '/api/v1/org/reviews/bulk', { ids, set: { status: 'done' } });
    expect(tooMany.status).toBe(400);
    expect(tooMany.json.error.message).toMatch(/at most 500/);

    const mixed = await api(owner, 'POST', '/api/v1/org/reviews/bulk', { ids: [...ids.slice(0, 10), theirs], set: { status: 'done', tags_add: [urgent.id] } });
    expect(mixed.status).toBe(404);
    const untouched = await workflowOfReviews(owner.orgId, ids.slice(0, 10));
    expect([...untouched.values()].every((x) => x.status === 'new' && x.tags.length === 0)).toBe(true);
    expect((await workflowOfReviews(stranger.orgId, [theirs])).get(theirs)?.status).toBe('new');

    const ok = await api<{ reviews: number; changed: number }>(owner, 'POST', '/api/v1/org/reviews/bulk', { ids: ids.slice(0, 500), set: { status: 'done', assignee_id: owner.userId, tags_add: [urgent.id] } });
    expect(ok.status, ok.text).toBe(200);
    expect(ok.json.data).toEqual({ reviews: 500, changed: 1500 });
    const after = await workflowOfReviews(owner.orgId, ids);
    expect([...after.values()].filter((x) => x.status === 'done' && x.assignee_id === owner.userId && x.tags[0]?.id === urgent.id)).toHaveLength(500);
    const audit = await sql<{ n: number }>`select count(*)::int as n from audit_log where org_id = ${owner.orgId} and action like 'review.%'`.execute(await getDb());
    expect(audit.rows[0].n).toBe(3);

    // The inbox filters and counts them.
    const done = await inbox(owner, '?status=done&limit=5');
    expect(done.total).toBe(500);
    expect(done.total_is_estimate).toBe(false);
    expect(done.data).toHaveLength(5);
    expect((await inbox(owner, '?status=new')).data.map((r) => r.id)).toEqual([ids[500]]);
    expect((await inbox(owner, `?tag=${urgent.id}&assignee=me&limit=1`)).total).toBe(500);
    expect((await inbox(owner, '?tag=urgent&assignee=none')).total).toBe(0);
    expect((await inbox(owner, '?assignee=none')).data.map((r) => r.id)).toEqual([ids[500]]);
    expect((await inbox(stranger, '?status=done')).total).toBe(0);
    expect((await api(stranger, 'GET', `/api/v1/org/reviews?tag=${urgent.id}`)).status).toBe(404);
  });
});

describe('the inbox: filters and the count', () => {
  test('status, tag (id or name), assignee (me, none, a member) alone and together, with exact counts', async () => {
    const owner = await newOwner();
    const member = await memberOf(owner, 'member');
    const key = await appWith(owner, 'apple_app_store', [
      { body: 'one', hoursAgo: 1 },
      { body: 'two', hoursAgo: 2, reply: 'Thanks' },
      { body: 'three', hoursAgo: 3 },
      { body: 'four', hoursAgo: 4 },
    ]);
    const [one, two, three, four] = await reviewIds(key);
    const bug = await newTag(owner, 'Bug');
    const ux = await newTag(owner, 'UX');
    await api(owner, 'PATCH', `/api/v1/org/reviews/${one}`, { status: 'needs_reply', tags_add: [bug.id], assignee_id: member.userId });
    await api(owner, 'PATCH', `/api/v1/org/reviews/${three}`, { status: 'done', tags_add: [ux.id, bug.id] });
    await api(owner, 'PATCH', `/api/v1/org/reviews/${four}`, { assignee_id: owner.userId });

    const bodies = async (u: SignedInUser, q: string) => {
      const page = await inbox(u, q);
      expect(page.total).toBe(page.data.length);
      return page.data.map((r) => r.content_body);
    };
    expect(await bodies(owner, '')).toEqual(['one', 'two', 'three', 'four']);
    expect(await bodies(owner, '?status=new')).toEqual(['four']);
    expect(await bodies(owner, '?status=replied')).toEqual(['two']);
    expect(await bodies(owner, '?status=needs_reply,done')).toEqual(['one', 'three']);
    expect(await bodies(owner, `?tag=${bug.id}`)).toEqual(['one', 'three']);
    expect(await bodies(owner, '?tag=bug,UX')).toEqual(['one', 'three']);
    expect(await bodies(owner, '?tag=ux&status=done')).toEqual(['three']);
    expect(await bodies(member, '?assignee=me')).toEqual(['one']);
    expect(await bodies(owner, '?assignee=me')).toEqual(['four']);
    expect(await bodies(owner, '?assignee=none')).toEqual(['two', 'three']);
    expect(await bodies(owner, `?assignee=none,${member.userId}`)).toEqual(['one', 'two', 'three']);
    expect(await bodies(owner, '?status=done&q=three')).toEqual(['three']);

    const row = (await inbox(owner, `?review=${one}`)).data[0];
    expect(row).toMatchObject({ status: 'needs_reply', assignee: { id: member.userId }, tags: [{ name: 'Bug' }], notes_count: 0 });
    expect(row.id).toBe(one);
    expect(two).toBeTruthy();

    expect((await api(owner, 'GET', '/api/v1/org/reviews?tag=nosuchtag')).status).toBe(404);
    expect((await api(owner, 'GET', '/api/v1/org/reviews?status=open')).status).toBe(400);
    expect((await api(owner, 'GET', '/api/v1/org/reviews?assignee=me;drop')).status).toBe(400);
  });

  test('a rare status among many reviews is read from the queue, and a count beyond the cap is an estimate', async () => {
    const owner = await newOwner();
    const key = await appWith(owner, 'google_play_store', Array.from({ length: 2600 }, (_, i) => ({ body: `many ${i}`, hoursAgo: i / 100 })));
    const ids = await reviewIds(key);
    // The oldest review alone needs a reply: beyond the bounded walk of the newest reviews.
    await api(owner, 'PATCH', `/api/v1/org/reviews/${ids.at(-1)}`, { status: 'needs_reply' });
    const rare = await inbox(owner, '?status=needs_reply');
    expect(rare.data.map((r) => r.id)).toEqual([ids.at(-1)]);
    expect(rare.total).toBe(1);
    const all = await inbox(owner, '?status=new&limit=2');
    // Beyond the cap the count says "more than 1,000" (the dashboard: "1,000+"), never a planner's guess.
    expect(all.total_is_estimate).toBe(true);
    expect(all.total).toBe(1001);
    expect(all.data).toHaveLength(2);
  });

  test('a review with two of the filtered tags counts and lists once', async () => {
    const owner = await newOwner();
    const key = await appWith(owner, 'apple_app_store', [{ body: 'both a' }, { body: 'both b' }, { body: 'only billing' }, { body: 'untagged' }]);
    const ids = await reviewIds(key);
    const billing = await newTag(owner, 'Billing');
    const bug = await newTag(owner, 'Bug');
    const bulk = await api(owner, 'POST', '/api/v1/org/reviews/bulk', { ids: ids.slice(0, 3), set: { tags_add: [billing.id] } });
    expect(bulk.status, bulk.text).toBe(200);
    expect((await api(owner, 'POST', '/api/v1/org/reviews/bulk', { ids: ids.slice(0, 2), set: { tags_add: [bug.id] } })).status).toBe(200);
    const both = await inbox(owner, `?tag=${billing.id},${bug.id}`);
    expect(both.total).toBe(3);
    expect(both.total_is_estimate).toBe(false);
    expect(new Set(both.data.map((r) => r.id))).toEqual(new Set(ids.slice(0, 3)));
    expect(both.data).toHaveLength(3);
  });
});

describe('tags everywhere', () => {
  test('the CSV export, the public API and the inbox show the tags', async () => {
    const owner = await newOwner();
    const key = await appWith(owner, 'apple_app_store', [{ body: 'Charged twice' }]);
    const [id] = await reviewIds(key);
    const billing = await newTag(owner, '=Billing "VIP"');
    const other = await newTag(owner, 'Refund');
    await api(owner, 'PATCH', `/api/v1/org/reviews/${id}`, { tags_add: [billing.id, other.id], status: 'done' });

    const csv = await call(w.api, 'GET', `/api/v1/org/reviews/export.csv?tag=Refund`, undefined, { token: owner.token });
    expect(csv.status).toBe(200);
    const [header, row] = csv.text.replace(/^\ufeff/, '').split('\r\n');
    expect(header.endsWith('"status","tags"')).toBe(true);
    expect(row.endsWith(`"done","'=Billing ""VIP"", Refund"`)).toBe(true);

    const created = await api<{ key: string }>(owner, 'POST', '/api/v1/org/api-keys', { name: 'Script' });
    expect(created.status, created.text).toBe(201);
    const pub = await call<Array<{ id: string; tags: Array<{ name: string }> }>>(w.api, 'GET', `/api/v1/apps/${key}/reviews`, undefined, { token: created.json.data.key });
    expect(pub.status, pub.text).toBe(200);
    expect(pub.json.data[0].tags.map((t) => t.name)).toEqual(['=Billing "VIP"', 'Refund']);
  });

  test('chat messages show a "Tags" line on every platform, escaped like any review text; the webhook carries the tags', () => {
    const hostile = [
      { id: 'tag_1', name: '<!channel> *bold* @here', color: '#d93025' },
      { id: 'tag_2', name: '<script>alert(1)</script> [x](https://evil.example) ||spoiler||', color: '#188038' },
    ];
    const input: ReviewMessageInput = {
      kind: 'new',
      reviewId: '42',
      tags: hostile,
      app: { appId: '284882215', store: 'apple_app_store', title: 'Lumen' },
      review: {
        store: 'apple_app_store', appId: '284882215', storeReviewId: 's1', country: 'us', language: 'en', authorName: 'Kim', title: 'Sync', body: 'Broke',
        rating: 2, appVersion: '1.0', createdAt: new Date('2026-05-01T00:00:00Z'), updatedAt: new Date('2026-05-01T00:00:00Z'), replyText: null, replyUpdatedAt: null, permalink: null,
      },
    };
    for (const platform of ALL_PLATFORMS) {
      const out = formatFor(platform, { type: 'review', input }, { unsubscribeUrl: 'https://arb.example/u' });
      // An e-mail's plain-text part shows the name as written (nothing there renders markup); its HTML part escapes it.
      const text = out.kind === 'email' ? out.html : JSON.stringify(out.body);
      if (platform === 'webhook') {
        expect((out as { body: { data: { tags: unknown } } }).body.data.tags).toEqual(hostile);
        continue;
      }
      expect(text, platform).toContain('Tags');
      expect(text, platform).not.toContain('<!channel>');
      expect(text, platform).not.toContain('<script>');
      if (out.kind === 'email') {
        expect(out.html).toContain('&lt;script&gt;');
        expect(out.text).toContain('Tags: <!channel> *bold* @here');
      }
    }
    const untagged = formatFor('slack', { type: 'review', input: { ...input, tags: [] } });
    expect(JSON.stringify((untagged as { body: unknown }).body)).not.toContain('Tags');
  });
});

describe('a destination filtered by a tag', () => {
  test('gets a review when it is tagged, once, and only reviews of its organisation dated after it started watching', async () => {
    const owner = await newOwner();
    const appId = String(1_600_000_000 + Math.floor(Math.random() * 1e8));
    const key = `apple_app_store__${appId}`;
    const destination = await createDestination({
      orgId: owner.orgId,
      platform: 'slack',
      url: 'https://hooks.slack.com/services/T00000000/B00000000/XXXXXXXXXXXXXXXXXXXXXXXX',
      apps: [{ store: 'apple_app_store', appId, title: 'Tagged app' }],
      welcomeCount: 0,
    });
    const db = await getDb();
    await db.insertInto('org_apps').values({ org_id: owner.orgId, app_key: key, countries: ['us'], added_by: owner.userId, added_by_email: owner.email }).onConflict((oc) => oc.doNothing()).execute();
    const insert = (body: string, at: Date) =>
      db.insertInto('reviews').values({ app_key: key, store: 'apple_app_store', store_review_id: `t-${body}-${appId}`, country: 'us', language: 'en', author_name: 'Kim', title: null, body, rating: 1, app_version: null, written_at: null, updated_at: at, reply_text: null, reply_updated_at: null, permalink: null, sentiment: null, sentiment_score: null })
        .returning('id').executeTakeFirstOrThrow();
    const fresh = String((await insert('fresh', new Date(Date.now() + 1000))).id);
    const old = String((await insert('old', new Date(Date.now() - 86_400_000))).id);
    const untagged = String((await insert('untagged', new Date(Date.now() + 1000))).id);
    const billing = await newTag(owner, 'billing');
    const other = await newTag(owner, 'other');
    const set = await api(owner, 'PATCH', `/api/v1/org/destinations/${destination.id}`, { filters: { tags: [billing.id] } });
    expect(set.status, set.text).toBe(200);
    expect((await api(owner, 'PATCH', `/api/v1/org/destinations/${destination.id}`, { filters: { tags: ['tag_AAAAAAAAAAAAAAAAAAAAAAAA'] } })).status).toBe(400);

    const deliveries = async () =>
      (await db.selectFrom('deliveries').select(['review_id', 'kind']).where('destination_id', '=', destination.id).where('review_id', 'is not', null).execute()).map((d) => [String(d.review_id), d.kind]);
    await api(owner, 'PATCH', `/api/v1/org/reviews/${untagged}`, { tags_add: [other.id] });
    expect(await deliveries()).toEqual([]);
    await api(owner, 'POST', '/api/v1/org/reviews/bulk', { ids: [fresh, old], set: { tags_add: [billing.id] } });
    expect(await deliveries()).toEqual([[fresh, 'new']]);
    await api(owner, 'PATCH', `/api/v1/org/reviews/${fresh}`, { tags_remove: [billing.id] });
    await api(owner, 'PATCH', `/api/v1/org/reviews/${fresh}`, { tags_add: [billing.id] });
    expect(await deliveries()).toEqual([[fresh, 'new']]);
    const q = await sql<{ tags: unknown }>`
      select (select json_agg(t.name) from review_tags rt join tags t on t.id = rt.tag_id where rt.review_id = ${fresh}::bigint and rt.org_id = ${owner.orgId}) as tags`.execute(db);
    expect(q.rows[0].tags).toEqual(['billing']);
  });
});

describe('what the pipeline changes by itself', () => {
  test('a published reply makes a review replied; an edit of a replied or done review needs a reply again', async () => {
    const owner = await newOwner();
    const other = await newOwner('watcher');
    const key = await appWith(owner, 'apple_app_store', [{ body: 'answered' }, { body: 'closed' }, { body: 'open' }, { body: 'shown' }]);
    await (await getDb()).insertInto('org_apps').values({ org_id: other.orgId, app_key: key, countries: ['us'], added_by: other.userId, added_by_email: other.email }).execute();
    const [answered, closed, open, shown] = await reviewIds(key);
    await api(owner, 'PATCH', `/api/v1/org/reviews/${answered}`, { status: 'needs_reply' });
    await api(owner, 'PATCH', `/api/v1/org/reviews/${closed}`, { status: 'done' });
    await api(owner, 'PATCH', `/api/v1/org/reviews/${shown}`, { status: 'needs_reply' });

    await onReplyPublished(owner.orgId, answered);
    expect((await workflowOfReviews(owner.orgId, [answered])).get(answered)?.status).toBe('replied');
    expect((await workflowOfReviews(other.orgId, [answered])).get(answered)?.status).toBe('new');

    // The store shows a reply (ARB's confirmed, or written elsewhere): replied in the poll's transaction.
    const db = await getDb();
    await db.transaction().execute(async (trx) => {
      await trx.updateTable('reviews').set({ reply_text: 'We fixed it' }).where('id', '=', Number(shown)).execute();
      await onRepliesShown(trx, [Number(shown)]);
    });
    expect((await workflowOfReviews(owner.orgId, [shown])).get(shown)?.status).toBe('replied');
    expect((await workflowOfReviews(other.orgId, [shown])).get(shown)?.status).toBe('replied');

    await db.transaction().execute((trx) => onReviewsEdited(trx, [Number(answered), Number(closed), Number(open), Number(shown)]));
    const mine = await workflowOfReviews(owner.orgId, [answered, closed, open, shown]);
    expect(mine.get(answered)).toMatchObject({ status: 'needs_reply', status_reason: EDITED_AFTER_REPLY_REASON });
    expect(mine.get(closed)).toMatchObject({ status: 'needs_reply', status_reason: EDITED_AFTER_REPLY_REASON });
    expect(mine.get(open)).toMatchObject({ status: 'new', status_reason: null });
    expect(mine.get(shown)).toMatchObject({ status: 'needs_reply', status_reason: EDITED_AFTER_REPLY_REASON });
    // The watcher's copy of the store-replied review too; its new one stays new.
    expect((await workflowOfReviews(other.orgId, [shown, answered])).get(shown)?.status).toBe('needs_reply');
    expect((await workflowOfReviews(other.orgId, [answered])).get(answered)?.status).toBe('new');
    const row = (await inbox(owner, `?review=${closed}`)).data[0];
    expect(row).toMatchObject({ status: 'needs_reply', status_reason: EDITED_AFTER_REPLY_REASON });
  });
});
