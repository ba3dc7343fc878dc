// A destination is claimed when the head of its queue is due, not when any open message is: its messages go out in
// order, so a due message behind a head still waiting for its retry would only make the claim give the destination
// straight back. (The destination's own next_send_at can be earlier than its head's retry: a resumed or reconnected
// destination starts again at once.)
import { afterAll, beforeAll, expect, test } from 'vitest';
import { sql } from 'kysely';
import { createDestination, ensureApp, pollAppNow } from '@/server/monitor/service';
import { claimDestinations, claimStatement } from '@/server/monitor/deliveryWorker';
import { marker, startWorld, type World } from './helpers/world';
import { indexesOf, planWithoutSeqScans, seqScans } from './helpers/plans';

const APP = { store: 'apple_app_store' as const, appId: '6000201' };
let w: World;
let waiting: string;
let ready: string;

const headOf = async (destinationId: string) =>
  (await sql<{ id: number }>`select id from deliveries where destination_id = ${destinationId} order by id limit 1`.execute(w.db.db)).rows[0].id;

beforeAll(async () => {
  w = await startWorld();
  await ensureApp({ ...APP, title: 'Quiet Harbour' });
  waiting = (await createDestination({ platform: 'mattermost', url: w.chat.hook('mattermost').url, apps: [APP], welcomeCount: 0 })).id;
  ready = (await createDestination({ platform: 'mattermost', url: w.chat.hook('mattermost').url, apps: [APP], welcomeCount: 0 })).id;
  await pollAppNow(APP); // the welcome intros
  for (let i = 1; i <= 2; i++) w.feed.publish(APP.appId, 'us', { content: `review ${marker(i)}`, updated: new Date(Date.now() + 1000 + i) });
  await pollAppNow(APP); // + 2 reviews each: 3 open messages per destination, all due
  // The first destination's head failed and waits a minute for its retry; the two reviews behind it are due.
  await sql`update deliveries set status = 'retry', attempts = 1, next_attempt_at = now() + interval '1 minute' where id = ${await headOf(waiting)}`.execute(w.db.db);
}, 60_000);

afterAll(async () => {
  await w.close();
});

test('a queue whose head waits for its retry is not claimed, though messages behind it are due', async () => {
  const claimed = await claimDestinations(w.db.db, 'w1', 10, 60_000);
  expect(claimed.map((d) => d.id)).toEqual([ready]);
});

test('it is claimed once its head is due', async () => {
  await sql`update deliveries set next_attempt_at = now() - interval '1 second' where id = ${await headOf(waiting)}`.execute(w.db.db);
  const claimed = await claimDestinations(w.db.db, 'w2', 10, 60_000);
  expect(claimed.map((d) => d.id)).toEqual([waiting]); // the other is still held by w1
});

// Most active destinations have nothing queued most of the time, and every process claims at least once a second: a
// claim walks the open-queue index from one destination with something queued to the next and looks each one up,
// rather than testing every active destination (bench/claims.ts: 73 ms a claim at 10,000 of them, 0.8 ms now).
test('a claim reads destinations by key only, found through the open-queue index', async () => {
  const plan = await planWithoutSeqScans(w.db.db, claimStatement('w3', 10, 60_000, []));
  expect(seqScans(plan)).toEqual([]);
  expect(indexesOf(plan, 'destinations')).toEqual(['destinations_pkey']);
  expect(indexesOf(plan, 'deliveries')).toEqual(['deliveries_open_by_destination_idx']);
});
