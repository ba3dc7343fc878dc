// A hold always moves its destination forward: however short the hold (DELIVERY_HOLD_MS) and however slow the queue
// read on a busy machine, the holder sends at least one message before giving the destination back. Without that, a
// read slower than the hold gives the destination back untouched, and the next claim does the same, for ever.
import { afterAll, beforeAll, expect, test } from 'vitest';
import { createDestination, ensureApp, pollAppNow } from '@/server/monitor/service';
import { engineOptionsFromEnv } from '@/server/monitor/engine';
import { claimDestinations, createDeliveryGroups, processDestination } from '@/server/monitor/deliveryWorker';
import type { ChatHook } from '../fakes/chatWebhooks';
import { marker, startWorld, type World } from './helpers/world';

const APP = { store: 'apple_app_store' as const, appId: '6000101' };
let w: World;
let hook: ChatHook;

beforeAll(async () => {
  w = await startWorld();
  await ensureApp({ ...APP, title: 'Harbor Tides' });
  hook = w.chat.hook('mattermost');
  await createDestination({ platform: 'mattermost', url: hook.url, apps: [APP], welcomeCount: 0 });
  await pollAppNow(APP); // the welcome intro
  for (let i = 1; i <= 3; i++) w.feed.publish(APP.appId, 'us', { content: `review ${marker(i)}`, updated: new Date(Date.now() + 1000 + i) });
  await pollAppNow(APP); // + 3 reviews: 4 messages queued
}, 60_000);

afterAll(async () => {
  await w.close();
});

test('a hold already over before the first message still sends one, and gives the rest back for later', async () => {
  const opts = engineOptionsFromEnv({ workerId: 'short-hold' });
  const groups = createDeliveryGroups(w.db.db, opts.workerId, opts.leaseMs);
  for (let hold = 1; hold <= 4; hold++) {
    const [claimed] = await claimDestinations(w.db.db, opts.workerId, 10, opts.leaseMs);
    expect(claimed, `claim ${hold}`).toBeTruthy();
    // A hold of 0 ms has run out by the time the queue is read.
    const held = await processDestination(w.db.db, claimed, { ...opts, groups, maxHoldMs: 0 });
    expect(held.sent, `hold ${hold}`).toBe(1);
  }
  expect(hook.delivered()).toHaveLength(4);
  expect(await claimDestinations(w.db.db, opts.workerId, 10, opts.leaseMs)).toHaveLength(0); // nothing left to send
});
