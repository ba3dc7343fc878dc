// A destination waiting out its platform's pace does not keep its slot: while it waits (holding the destination, so
// its order and pace stay its own), the engine claims and sends to another. Here one slot and two Teams channels
// (4 messages at once, then one per 250 ms): the second channel's first message arrives while the first channel is
// still waiting between its last ones, not after them.
import { afterAll, beforeAll, expect, test } from 'vitest';
import { createDestination, ensureApp, pollAppNow } from '@/server/monitor/service';
import { engineOptionsFromEnv, startEngine } from '@/server/monitor/engine';
import type { ChatHook } from '../fakes/chatWebhooks';
import { marker, markersOf, startWorld, type World } from './helpers/world';

const APP = { store: 'apple_app_store' as const, appId: '6000301' };
const REVIEWS = 6; // + the intro: 4 at once, then 3 paced 250 ms apart
let w: World;
let first: ChatHook;
let second: ChatHook;

beforeAll(async () => {
  w = await startWorld();
  await ensureApp({ ...APP, title: 'Slow Lanes' });
  first = w.chat.hook('msteams');
  second = w.chat.hook('msteams');
  await createDestination({ platform: 'msteams', url: first.url, apps: [APP], welcomeCount: 0 });
  await createDestination({ platform: 'msteams', url: second.url, apps: [APP], welcomeCount: 0 });
  await pollAppNow(APP); // the welcome intros
  for (let i = 1; i <= REVIEWS; i++) w.feed.publish(APP.appId, 'us', { content: `review ${marker(i)}`, updated: new Date(Date.now() + 1000 + i) });
  await pollAppNow(APP);
}, 60_000);

afterAll(async () => {
  await w.close();
});

test('one slot, two paced channels: the second is sent to while the first waits for its pace', async () => {
  const engine = startEngine(w.db.db, engineOptionsFromEnv({ poll: false, pacing: 'platform', concurrency: 1, idleMs: 200 }));
  try {
    const [a, b] = await Promise.all([first.waitForDelivered(REVIEWS + 1), second.waitForDelivered(REVIEWS + 1)]);
    // Whichever was claimed first, the other one's first message came before its last.
    const [early, late] = a[0].receivedAt <= b[0].receivedAt ? [a, b] : [b, a];
    expect(late[0].receivedAt).toBeLessThan(early.at(-1)!.receivedAt);
    // Each channel still got its messages in order, at its pace: 4 at once, then 3 more 250 ms apart (a GCRA spaces
    // them on average, so one may come a little early after a late one; the whole run can't).
    for (const got of [early, late]) {
      expect(got.slice(1).flatMap(markersOf)).toEqual(Array.from({ length: REVIEWS }, (_, i) => marker(i + 1)));
      expect(got.at(-1)!.receivedAt - got[0].receivedAt).toBeGreaterThanOrEqual(3 * 250 - 30);
    }
  } finally {
    await engine.stop();
  }
});
