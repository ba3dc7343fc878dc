// A slot is for formatting and sending: a destination waiting out its platform's pace, or for its 'sending' mark to
// commit, does not keep its slot. While it waits (holding the destination, so its order and pace stay its own), the
// engine claims and sends to another; once its wait is over it takes a slot back when one is free. Here one slot and
// two Teams channels, paced (4 messages at once, then one per 250 ms) and unpaced: the second channel's first message
// arrives while the first channel still has messages to send, and never are two messages sent at once.
import { afterAll, beforeAll, expect, test } from 'vitest';
import { createDestination, ensureApp, pollAppNow } from '@/server/monitor/service';
import { engineOptionsFromEnv, startEngine } from '@/server/monitor/engine';
import { createWebhookSender, type WebhookSender } from '@/server/destinations/send';
import type { ChatHook } from '../fakes/chatWebhooks';
import { marker, markersOf, startWorld, type World } from './helpers/world';

const APP = { store: 'apple_app_store' as const, appId: '6000301' };
const REVIEWS = 6; // + the intro: 4 at once, then 3 paced 250 ms apart
let w: World;

/** Two Teams channels of one app, each with the intro and REVIEWS reviews queued. */
async function twoChannels(app: { store: 'apple_app_store'; appId: string }): Promise<[ChatHook, ChatHook]> {
  await ensureApp({ ...app, title: 'Slow Lanes' });
  const hooks: [ChatHook, ChatHook] = [w.chat.hook('msteams'), w.chat.hook('msteams')];
  for (const hook of hooks) await createDestination({ platform: 'msteams', url: hook.url, apps: [app], welcomeCount: 0 });
  await pollAppNow(app); // the welcome intros
  for (let i = 1; i <= REVIEWS; i++) w.feed.publish(app.appId, 'us', { content: `review ${marker(i)}`, updated: new Date(Date.now() + 1000 + i) });
  await pollAppNow(app);
  return hooks;
}

/** A real sender of its own (closed by the test), counting the most POSTs it had in flight at once. */
function countingSender(): WebhookSender & { mostAtOnce: () => number } {
  const real = createWebhookSender({ allowPrivate: true });
  let now = 0;
  let most = 0;
  return {
    async postJson(url, payload, headers) {
      most = Math.max(most, ++now);
      try {
        return await real.postJson(url, payload, headers);
      } finally {
        now--;
      }
    },
    close: () => real.close(),
    mostAtOnce: () => most,
  };
}

beforeAll(async () => {
  w = await startWorld();
}, 60_000);

afterAll(async () => {
  await w.close();
});

test('one slot, two paced channels: the second is sent to while the first waits for its pace', async () => {
  const [first, second] = await twoChannels(APP);
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

test('one slot, two unpaced channels: the second is sent to while the first waits on its commits, one POST at a time', async () => {
  const [first, second] = await twoChannels({ store: 'apple_app_store', appId: '6000302' });
  const sender = countingSender();
  const engine = startEngine(w.db.db, engineOptionsFromEnv({ poll: false, pacing: 'off', concurrency: 1, idleMs: 200, sender }));
  try {
    const [a, b] = await Promise.all([first.waitForDelivered(REVIEWS + 1), second.waitForDelivered(REVIEWS + 1)]);
    const [early, late] = a[0].receivedAt <= b[0].receivedAt ? [a, b] : [b, a];
    // Held alone in its slot, the first channel's seven messages would all go before the second's first.
    expect(late[0].receivedAt).toBeLessThan(early.at(-1)!.receivedAt);
    for (const got of [early, late]) expect(got.slice(1).flatMap(markersOf)).toEqual(Array.from({ length: REVIEWS }, (_, i) => marker(i + 1)));
    expect(sender.mostAtOnce()).toBe(1);
  } finally {
    await engine.stop();
    await sender.close();
  }
});
