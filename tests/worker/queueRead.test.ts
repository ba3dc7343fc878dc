// Reading a held destination's queue touches `deliveries` only through the open-queue index (destination, id), however
// large the table grows (it keeps every delivery ever made). Asked with sequential scans priced out of reach, the
// plan uses that index alone only if it can answer every part of the read — the welcome intro's count of the reviews
// queued with it included, which used to read the whole table (or the whole once-key index) for every intro.
import { afterAll, beforeAll, expect, test } from 'vitest';
import { createDestination, ensureApp, pollAppNow } from '@/server/monitor/service';
import { queueRead } from '@/server/monitor/deliveryQueue';
import { createDeliveryGroups } from '@/server/monitor/deliveryWorker';
import { marker, startWorld, type World } from './helpers/world';
import { indexesOf, planWithoutSeqScans, seqScans } from './helpers/plans';

const APP = { store: 'apple_app_store' as const, appId: '6000401' };
let w: World;
let destinationId: string;

beforeAll(async () => {
  w = await startWorld();
  await ensureApp({ ...APP, title: 'Index Lane' });
  for (let i = 1; i <= 3; i++) w.feed.publish(APP.appId, 'us', { content: `review ${marker(i)}`, updated: new Date(Date.now() - 60_000 + i) });
  destinationId = (await createDestination({ platform: 'mattermost', url: w.chat.hook('mattermost').url, apps: [APP], welcomeCount: 2 })).id;
  await pollAppNow(APP); // stores the three as history and queues the welcome: the intro and the last two
}, 60_000);

afterAll(async () => {
  await w.close();
});

test('the queue read, welcome count included, finds its deliveries through the open-queue index alone', async () => {
  const plan = await planWithoutSeqScans(w.db.db, queueRead([destinationId], 100));
  expect(seqScans(plan)).not.toContain('deliveries');
  // An index that does not lead with the destination (the once-key starts with the review) would be read whole. The
  // welcome's reviews find their intro through its unique index (destination, app), which is one probe.
  expect(indexesOf(plan, 'deliveries').filter((i) => i !== 'deliveries_one_welcome_idx')).toEqual(['deliveries_open_by_destination_idx']);
});

test('the intro still counts the reviews queued with it', async () => {
  const { loadQueue } = createDeliveryGroups(w.db.db, 'w1', 60_000);
  const queue = await loadQueue(destinationId);
  expect(queue.map((d) => d.kind)).toEqual(['welcome', 'new', 'new']);
  expect(queue[0].welcome_recent).toBe(2);
  // The two are the welcome's recent reviews ("Recent review"), also once the intro has gone out.
  expect(queue.map((d) => d.welcome_review)).toEqual([false, true, true]);
  await w.db.db.updateTable('deliveries').set({ status: 'delivered' }).where('id', '=', queue[0].id).execute();
  expect((await createDeliveryGroups(w.db.db, 'w2', 60_000).loadQueue(destinationId)).map((d) => d.welcome_review)).toEqual([true, true]);
});

test('a review that arrives after the welcome is a new one', async () => {
  w.feed.publish(APP.appId, 'us', { content: `later ${marker(9)}`, updated: new Date(Date.now() + 2000) });
  await pollAppNow(APP);
  const queue = await createDeliveryGroups(w.db.db, 'w3', 60_000).loadQueue(destinationId);
  expect(queue.at(-1)).toMatchObject({ kind: 'new', body: expect.stringContaining(marker(9)), welcome_review: false });
});
