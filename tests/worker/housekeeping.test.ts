// The review outbox's housekeeping (server/monitor/housekeeping.ts, retention.ts, destinationDelete.ts) and parked
// messages (deliveryWorker.ts): delivered messages past the retention go, in batches, while what stops a repeat stays
// (welcome intros; a later welcome picks nothing whose row was pruned); a message whose sending was interrupted three
// times in a row is parked with its reason and shown on the status; unconfirmed e-mail destinations and Slack
// messages nothing will update go; deleting a destination while a poll fans out does not fail the poll (PostgreSQL).
import { expect, test } from 'vitest';
import { sql, type KyselyPlugin } from 'kysely';
import { addSource, createDestination, drainDeliveries, pollAppNow, updateDestinationSettings, appKey, ensureApp } from '@/server/monitor/service';
import { getDestinationStatus } from '@/server/destinations/records';
import { PARK_AFTER_INTERRUPTIONS } from '@/server/monitor/deliveryWorker';
import { createDeliveryMarks } from '@/server/monitor/deliveryMarks';
import { pruneDeliveredMessages, pruneUnconfirmedEmailDestinations } from '@/server/monitor/housekeeping';
import { deleteOrgDestination } from '@/server/monitor/data';
import { pruneSlackReplyMessages } from '@/server/slack/replyMessagesPrune';
import { pollLeasedSource } from '@/server/monitor/poller';
import { claimSource } from '@/server/monitor/sources';
import type { NormalizedReview, SourceAdapter } from '@/server/sources/types';
import { newOwner } from '../helpers/orgs';
import { marker, markersOf, tally, worldPerFile } from './helpers/world';

const t = worldPerFile({ title: 'Tidy Notes', firstAppId: 6300001 });
const db = () => t.w.db.db;
const DAY = 86400_000;

type Row = { id: number; kind: string; status: string; review_id: number | null; last_error: string | null };
const rowsOf = async (destinationId: string) =>
  (await sql<Row>`select id::int as id, kind, status, review_id::int as review_id, last_error from deliveries where destination_id = ${destinationId} order by id`.execute(db())).rows;
const age = (table: 'deliveries' | 'reviews', column: string, days: number, where: ReturnType<typeof sql>) =>
  sql`update ${sql.table(table)} set ${sql.ref(column)} = now() - ${days} * interval '1 day' where ${where}`.execute(db());

/**
 * A worker holds the destination (its lease, as claimDestinations sets it) and marks `deliveryId` 'sending' as the
 * engine does before its POST — then dies before any outcome, and its lease runs out.
 */
async function crashWhileSending(destinationId: string, deliveryId: number, worker: string) {
  await sql`update destinations set lease_owner = ${worker}, lease_until = now() + interval '1 minute' where id = ${destinationId}`.execute(db());
  expect(await createDeliveryMarks(db(), worker, 60_000).sending(destinationId, deliveryId, null)).toBe(true);
  await sql`update destinations set lease_until = now() - interval '1 second' where id = ${destinationId}`.execute(db());
}

/** `n` reviews of the app published and polled (after the app's first poll), then sent. */
async function publishAndSend(appId: string, from: number, n: number) {
  for (let i = from; i < from + n; i++) t.w.feed.publish(appId, 'us', { content: `review ${marker(i)}`, updated: new Date(Date.now() + i) });
  await pollAppNow({ store: 'apple_app_store', appId });
  await drainDeliveries();
}

test('delivered messages past the retention are deleted in batches; intros, open, failed and recent rows stay; the delivered count stays', async () => {
  const hook = t.w.chat.hook('slack');
  const { id } = await createDestination({ platform: 'slack', url: hook.url, apps: [t.app], welcomeCount: 0 });
  await pollAppNow(t.app); // the first poll: the welcome intro
  await publishAndSend(t.app.appId, 1, 6);
  const before = await rowsOf(id);
  expect(before.map((r) => `${r.kind} ${r.status}`)).toEqual(['welcome delivered', ...Array(6).fill('new delivered')]);
  expect((await getDestinationStatus(id))!.delivered).toBe(7);

  // Four reviews' messages (and the intro) were sent 100 days ago; one of them failed, one is still open.
  const [intro, r1, r2, r3, r4] = before;
  await age('deliveries', 'created_at', 100, sql`id in (${sql.join([intro.id, r1.id, r2.id, r3.id, r4.id])})`);
  await sql`update deliveries set status = 'failed' where id = ${r3.id}`.execute(db());
  await sql`update deliveries set status = 'retry' where id = ${r4.id}`.execute(db());

  const pruned = await pruneDeliveredMessages(db(), { batch: 2, pauseMs: 0, retentionMs: 90 * DAY });
  expect(pruned.deleted).toBeGreaterThanOrEqual(2);
  expect(pruned.statements).toBeGreaterThan(1); // a batch of rows per statement
  const after = await rowsOf(id);
  expect(after.map((r) => r.id)).toEqual(before.filter((r) => r.id !== r1.id && r.id !== r2.id).map((r) => r.id));
  expect(after.find((r) => r.id === intro.id)!.kind).toBe('welcome');
  // "Messages delivered" still counts what was pruned: the intro and r5, r6 left + r1, r2 pruned (r3 failed, r4 open now).
  expect((await getDestinationStatus(id))!.delivered).toBe(5);

  // Pruning again finds nothing more; the retention's own rows are untouched.
  const again = await pruneDeliveredMessages(db(), { batch: 2, pauseMs: 0, retentionMs: 90 * DAY });
  expect(await rowsOf(id)).toEqual(after);
  expect(again.deleted).toBe(0);
});

test('an app removed from a destination and added back after a prune: its welcome repeats nothing that was delivered', async () => {
  const other = { store: 'apple_app_store' as const, appId: String(Number(t.app.appId) + 500) };
  await ensureApp({ ...other, title: 'Second App' });
  const hook = t.w.chat.hook('slack');
  const { id } = await createDestination({ platform: 'slack', url: hook.url, apps: [t.app, other], welcomeCount: 3 });
  await pollAppNow(t.app);
  await pollAppNow(other);
  await publishAndSend(t.app.appId, 11, 4); // 11..14 delivered as new
  expect(tally(hook.delivered()).get(marker(14))).toBe(1);

  // Months pass: reviews 11 and 12 were first stored, and delivered, 100 days ago; their rows are pruned.
  const key = appKey(t.app);
  const old = (await rowsOf(id)).filter((r) => r.kind === 'new').slice(0, 2);
  await age('deliveries', 'created_at', 100, sql`id in (${sql.join(old.map((r) => r.id))})`);
  await age('reviews', 'first_seen_at', 100, sql`id in (${sql.join(old.map((r) => r.review_id!))})`);
  await pruneDeliveredMessages(db(), { pauseMs: 0 });
  expect((await rowsOf(id)).map((r) => r.id)).not.toContain(old[0].id);

  // The app is removed from the destination, then added back: its second welcome (no second intro) picks only among
  // reviews whose rows are still there, so nothing arrives twice.
  await updateDestinationSettings(id, { appKeys: [appKey(other)] });
  await updateDestinationSettings(id, { appKeys: [key, appKey(other)] });
  await drainDeliveries();
  const counts = tally(hook.delivered());
  for (const i of [11, 12, 13, 14]) expect(counts.get(marker(i)), marker(i)).toBe(1);
  expect(hook.delivered().filter((r) => r.raw.includes('Tidy Notes') && markersOf(r).length === 0)).toHaveLength(1); // one intro
});

test(`a message whose sending was interrupted ${PARK_AFTER_INTERRUPTIONS} times in a row is parked with its reason, and the queue moves on`, async () => {
  const hook = t.w.chat.hook('slack');
  const { id } = await createDestination({ platform: 'slack', url: hook.url, apps: [t.app], welcomeCount: 0 });
  await pollAppNow(t.app);
  await drainDeliveries(); // the intro
  for (let i = 21; i <= 23; i++) t.w.feed.publish(t.app.appId, 'us', { content: `review ${marker(i)}`, updated: new Date(Date.now() + i) });
  await pollAppNow(t.app);
  const head = (await rowsOf(id)).find((r) => r.kind === 'new')!;

  // A worker takes the destination and marks the head 'sending' — then dies before any outcome; its lease runs out.
  // Three times (the marks as the engine writes them; tests/worker/crash.test.ts kills a real worker at this point).
  for (let i = 0; i < PARK_AFTER_INTERRUPTIONS; i++) {
    await crashWhileSending(id, head.id, `crashing-${i}`);
  }
  await drainDeliveries();

  const rows = await rowsOf(id);
  expect(rows.find((r) => r.id === head.id)).toMatchObject({ status: 'parked', last_error: expect.stringContaining(`the worker stopped while sending this message ${PARK_AFTER_INTERRUPTIONS} times in a row`) });
  expect(rows.filter((r) => r.kind === 'new').map((r) => r.status)).toEqual(['parked', 'delivered', 'delivered']);
  const counts = tally(hook.delivered());
  expect(counts.get(marker(21))).toBeUndefined(); // never sent again
  expect([counts.get(marker(22)), counts.get(marker(23))]).toEqual([1, 1]);
  const status = (await getDestinationStatus(id))!;
  expect(status).toMatchObject({ parked: 1, parked_reason: expect.stringContaining('set it aside'), queued: 0, first_message: 'delivered' });
});

test('interrupted fewer times than that: sent again once (at least once for the message in flight)', async () => {
  const hook = t.w.chat.hook('slack');
  const { id } = await createDestination({ platform: 'slack', url: hook.url, apps: [t.app], welcomeCount: 0 });
  await pollAppNow(t.app);
  await drainDeliveries();
  t.w.feed.publish(t.app.appId, 'us', { content: `review ${marker(31)}`, updated: new Date(Date.now() + 1) });
  await pollAppNow(t.app);
  const head = (await rowsOf(id)).find((r) => r.kind === 'new')!;
  for (let i = 0; i < PARK_AFTER_INTERRUPTIONS - 1; i++) {
    await crashWhileSending(id, head.id, `crashing-${i}`);
  }
  await drainDeliveries();
  expect((await rowsOf(id)).find((r) => r.id === head.id)!.status).toBe('delivered');
  expect(tally(hook.delivered()).get(marker(31))).toBe(1);
  expect((await getDestinationStatus(id))!.parked).toBe(0);
});

test('e-mail destinations never confirmed are deleted once their link expired (with a day to spare); others stay', async () => {
  const mk = (address: string, confirmed = false) => createDestination({ platform: 'email', email: address, apps: [t.app], addressConfirmed: confirmed });
  const stale = await mk(`stale-${t.app.appId}@example.com`);
  const fresh = await mk(`fresh-${t.app.appId}@example.com`);
  const resent = await mk(`resent-${t.app.appId}@example.com`);
  const confirmed = await mk(`own-${t.app.appId}@example.com`, true);
  expect((await getDestinationStatus(stale.id))!.status).toBe('pending_confirmation');
  await sql`update destinations set created_at = now() - interval '4 days', confirmation_sent_at = now() - interval '4 days' where id in (${stale.id}, ${confirmed.id})`.execute(db());
  // Created long ago, but a new confirmation e-mail went out yesterday: its link is still good.
  await sql`update destinations set created_at = now() - interval '10 days', confirmation_sent_at = now() - interval '1 day' where id = ${resent.id}`.execute(db());

  expect(await pruneUnconfirmedEmailDestinations(db())).toBe(1);
  expect(await getDestinationStatus(stale.id)).toBeNull();
  for (const d of [fresh, resent, confirmed]) expect(await getDestinationStatus(d.id)).not.toBeNull();
});

test('Slack messages kept for a Reply click go a month after it, unless a reply is still on its way or not shown yet', async () => {
  const owner = await newOwner('tidy');
  const hook = t.w.chat.hook('slack');
  const { id } = await createDestination({ platform: 'slack', url: hook.url, apps: [t.app], welcomeCount: 0, orgId: owner.orgId });
  await pollAppNow(t.app);
  for (let i = 41; i <= 44; i++) t.w.feed.publish(t.app.appId, 'us', { content: `review ${marker(i)}`, updated: new Date(Date.now() + i) });
  await pollAppNow(t.app);
  const reviews = (await rowsOf(id)).filter((r) => r.kind === 'new').map((r) => r.review_id!);
  const [oldDone, oldPending, oldUnshown, recent] = reviews;
  for (const [reviewId, daysOld] of [[oldDone, 40], [oldPending, 40], [oldUnshown, 40], [recent, 2]] as const) {
    await sql`insert into slack_reply_messages (destination_id, review_id, channel_id, message_ts, response_url, response_url_at, created_at)
              values (${id}, ${reviewId}, 'C1', '1.1', 'https://hooks.slack.com/actions/x', now() - ${daysOld} * interval '1 day', now() - ${daysOld} * interval '1 day')`.execute(db());
  }
  const reply = (reviewId: number, state: string, published: boolean) =>
    sql`insert into replies (id, org_id, review_id, app_key, text, state, author_label, review_updated_at, published_at)
        values (${`rpl_${reviewId}`}, ${owner.orgId}, ${reviewId}, ${appKey(t.app)}, 'Thanks', ${state}, 'someone', now(), ${published ? sql`now() - interval '35 days'` : null})`.execute(db());
  await reply(oldDone, 'published', true);
  await sql`update slack_reply_messages set shown_published_at = now() - interval '35 days' where review_id = ${oldDone}`.execute(db());
  await reply(oldPending, 'pending_publish', false);
  await reply(oldUnshown, 'published', true); // published, the message not updated yet

  expect(await pruneSlackReplyMessages(db(), { batch: 1 })).toBe(1);
  const left = (await sql<{ review_id: number }>`select review_id::int as review_id from slack_reply_messages where destination_id = ${id} order by review_id`.execute(db())).rows;
  expect(left.map((r) => r.review_id)).toEqual([oldPending, oldUnshown, recent].sort((a, b) => a - b));
});

/** Counts statements on the handle it is plugged into; `afterFirst` runs once the first one's result is in. */
function afterFirstStatement(afterFirst: () => Promise<void>): KyselyPlugin {
  let n = 0;
  return {
    transformQuery: (args) => {
      n++;
      return args.node;
    },
    transformResult: async (args) => {
      if (n === 1) await afterFirst();
      return args.result;
    },
  };
}

// PostgreSQL only: the delete runs on a connection of its own between the poll's read and its write (PGlite's one
// connection is the poll's meanwhile), as in tests/worker/pollStatements.test.ts.
test.skipIf(process.env.ARB_TEST_DB !== 'postgres')('a destination deleted between a poll\'s read and its write: the poll still stores its reviews, for the others', async () => {
  const owner = await newOwner('deleter');
  const gone = t.w.chat.hook('slack');
  const stays = t.w.chat.hook('mattermost');
  const doomed = await createDestination({ platform: 'slack', url: gone.url, apps: [t.app], welcomeCount: 0, orgId: owner.orgId });
  const kept = await createDestination({ platform: 'mattermost', url: stays.url, apps: [t.app], welcomeCount: 0 });
  const source = await addSource({ ...t.app, kind: 'appstore_feed', country: 'us' });
  await pollAppNow(t.app); // the first poll: a watermark, the intros
  const base = Date.now() + 60_000;
  const review = (i: number): NormalizedReview => ({
    store: 'apple_app_store', appId: t.app.appId, storeReviewId: `hk-${t.app.appId}-${i}`, country: 'us', language: null, authorName: `R${i}`,
    title: `Review ${i}`, body: `Text ${marker(50 + i)}`, rating: 4, appVersion: '1.0', createdAt: null, updatedAt: new Date(base + i * 1000),
    replyText: null, replyUpdatedAt: null, permalink: null,
  });
  const adapter: SourceAdapter = { kind: 'appstore_feed', poll: async () => ({ reviews: [review(2), review(1)], complete: true }) };
  const leased = await claimSource(db(), source.id, 'poller', 60_000);
  let deleted = false;
  const outcome = await pollLeasedSource(
    db().withPlugin(afterFirstStatement(async () => {
      deleted = await deleteOrgDestination(db(), owner.orgId, doomed.id);
    })),
    leased!,
    { workerId: 'poller', intervalSeconds: 300, adapterFor: () => adapter },
  );
  expect(deleted).toBe(true);
  expect(outcome).toMatchObject({ ok: true, inserted: 2 });
  expect((await rowsOf(kept.id)).filter((r) => r.kind === 'new')).toHaveLength(2);
  expect(await getDestinationStatus(doomed.id)).toBeNull();
});
