// Several destinations connected to one app at the same moment, through the public connect endpoint with the engine
// running in this process (as in `npm start`): each gets the welcome and the last 5 reviews, and nothing written
// before the connection is ever announced later as a new review — also when the store publishes it late.
import { expect, test } from 'vitest';
import { sql } from 'kysely';
import { getDb } from '@/server/db/client';
import { call } from '../helpers/request';
import { marker, markersIn, newIosApp, newIp, payloadFor, connectWorldWithEngine } from '../api/support/connectWorld';
import type { ChatHook } from '../fakes/chatWebhooks';

const t = connectWorldWithEngine();

const isWelcome = (raw: string) => raw.includes('ARB is connected');
const hoursAgo = (n: number) => new Date(Date.now() - n * 3600_000);
const PLATFORMS = ['slack', 'discord', 'mattermost'] as const;

/** Slack, Discord and Mattermost connected to the app within a second, each through POST v1/oauth/platform/connect. */
async function connectThree(appId: string): Promise<ChatHook[]> {
  const hooks = PLATFORMS.map((p) => t.w.chat.hook(p));
  const answers = await Promise.all(
    PLATFORMS.map(async (platform, i) => {
      await new Promise((r) => setTimeout(r, i * 300));
      return call(t.w.api, 'POST', '/api/v1/oauth/platform/connect', { platform, payload: payloadFor({ app_id: appId, webhook_url: hooks[i].url }) }, { ip: newIp() });
    }),
  );
  for (const a of answers) expect(a.status).toBe(200);
  for (const hook of hooks) await hook.waitForDelivered(6, 15_000);
  return hooks;
}

/** What each channel shows: 'welcome', then the markers of the reviews in arrival order. */
const channel = (hook: ChatHook) => hook.delivered().map((g) => (isWelcome(g.raw) ? 'welcome' : markersIn(g.raw).join(',')));

/** The app's sources are polled again now (as their next period would), and whatever that queues is sent. */
async function nextPoll(appId: string) {
  const db = await getDb();
  const before = await db.selectFrom('monitored_sources').select('last_success_at').where('app_key', '=', `apple_app_store__${appId}`).executeTakeFirstOrThrow();
  await sql`update monitored_sources set next_poll_at = now() where app_key = ${`apple_app_store__${appId}`}`.execute(db);
  for (let i = 0; i < 100; i++) {
    const row = await db.selectFrom('monitored_sources').select('last_success_at').where('app_key', '=', `apple_app_store__${appId}`).executeTakeFirstOrThrow();
    if (row.last_success_at && before.last_success_at && row.last_success_at > before.last_success_at) break;
    await new Promise((r) => setTimeout(r, 100));
  }
  await new Promise((r) => setTimeout(r, 1500)); // time for anything queued to be delivered where it must not
}

test('8 reviews written 1–8 hours ago; Slack, Discord and Mattermost connected within a second: each gets the welcome and the 5 latest, and never the 6th', async () => {
  const app = newIosApp(t.w, 'Harbor Ledger');
  for (let i = 1; i <= 8; i++) t.w.feed.publish(app.appId, 'us', { title: `Review ${i}`, content: `Text ${marker(i)}`, rating: 4, updated: hoursAgo(9 - i) });
  const hooks = await connectThree(app.appId);
  await nextPoll(app.appId);
  const expected = ['welcome', ...[4, 5, 6, 7, 8].map(marker)];
  for (const hook of hooks) expect(channel(hook), hook.platform).toEqual(expected);
});

test('a review written before the connections that the store publishes only later is history for them, not a new review', async () => {
  const app = newIosApp(t.w, 'Harbor Ledger Late');
  // The 6th-latest (6 hours old) is missing from the feed at first: the App Store feed publishes reviews hours late.
  for (const i of [1, 2, 4, 5, 6, 7, 8]) t.w.feed.publish(app.appId, 'us', { title: `Review ${i}`, content: `Text ${marker(i)}`, rating: 4, updated: hoursAgo(9 - i) });
  const hooks = await connectThree(app.appId);
  t.w.feed.publish(app.appId, 'us', { title: 'Review 3', content: `Text ${marker(3)}`, rating: 4, updated: hoursAgo(6) });
  await nextPoll(app.appId);
  for (const hook of hooks) expect(channel(hook), hook.platform).toEqual(['welcome', ...[4, 5, 6, 7, 8].map(marker)]);

  // A review written after the connections is announced to all three.
  t.w.feed.publish(app.appId, 'us', { title: 'Review 9', content: `Text ${marker(9)}`, rating: 4, updated: new Date(Date.now() + 1000) });
  await nextPoll(app.appId);
  for (const hook of hooks) expect(channel(hook).at(-1), hook.platform).toBe(marker(9));
});
