// A webhook receiver that abuses rate limits cannot pin a worker: `429 Retry-After: 0` gets at most one POST a second
// and then fewer and fewer, an absurd Retry-After is clamped to an hour instead of breaking the interval arithmetic,
// and a receiver that answers nothing but 429 is paused with a reason its owner reads on the public status.
import { expect, test } from 'vitest';
import { sql } from 'kysely';
import { createDestination, drainDeliveries, pollAppNow } from '@/server/monitor/service';
import { getDestinationStatus } from '@/server/destinations/records';
import type { ChatHook } from '../fakes/chatWebhooks';
import { marker, worldPerFile } from './helpers/world';

const t = worldPerFile({ title: 'Quiet Harbor', firstAppId: 3100001 });

/** Connected, intro delivered and forgotten; then one new review is queued for it. */
async function connectWithOneReview(hook: ChatHook) {
  const d = await createDestination({ platform: hook.platform, url: hook.url, apps: [t.app], welcomeCount: 0 });
  await pollAppNow(t.app);
  await drainDeliveries({ waitForRetries: true });
  hook.requests.length = 0;
  t.w.feed.publish(t.app.appId, 'us', { content: `review ${marker(1)}`, rating: 2, updated: new Date() });
  await pollAppNow(t.app);
  return d;
}

const gaps = (hook: ChatHook) => hook.requests.slice(1).map((r, i) => r.receivedAt - hook.requests[i].receivedAt);

test('429 with Retry-After: 0, again and again: waits of at least 1 s that double, then the destination is paused with a reason', async () => {
  const hook = t.w.chat.hook('slack');
  const { id } = await connectWithOneReview(hook);
  hook.setDefault({ kind: 'rate_limit', retryAfter: 0 });

  await drainDeliveries({ waitForRetries: true, rateLimitPauseAfter: 4, timeoutMs: 12_000 });

  // 1 s, 2 s, 4 s between the four attempts — not ten POSTs a second.
  expect(hook.requests).toHaveLength(4);
  const [a, b, c] = gaps(hook);
  expect(a).toBeGreaterThanOrEqual(950);
  expect(b).toBeGreaterThanOrEqual(1950);
  expect(c).toBeGreaterThanOrEqual(3950);

  const status = await getDestinationStatus(id);
  expect(status).toMatchObject({ status: 'paused', queued: 1 });
  expect(status!.status_reason).toMatch(/^Slack answered every message with “too many requests” \(HTTP 429\) for over an hour, so ARB paused this connection/);
  expect(status!.last_error).toBe(status!.status_reason);

  // Connecting the same webhook again resumes it, and the review that waited arrives.
  hook.setDefault({ kind: 'ok' });
  const again = await createDestination({ platform: 'slack', url: hook.url, apps: [t.app], welcomeCount: 0 });
  expect(again).toMatchObject({ id, created: false });
  expect((await getDestinationStatus(id))!.status).toBe('active');
  await drainDeliveries({ waitForRetries: true, timeoutMs: 5000 });
  expect(hook.delivered().map((r) => r.raw.includes(marker(1)))).toEqual([true]);
}, 30_000);

test('Retry-After: 1e300 (and Discord\'s retry_after of 1e300) waits an hour, not forever, and breaks nothing', async () => {
  for (const platform of ['mattermost', 'discord'] as const) {
    const hook = t.w.chat.hook(platform);
    const { id } = await connectWithOneReview(hook);
    hook.script({ kind: 'rate_limit', retryAfter: 1e300 }, 1);
    const before = Date.now();
    await drainDeliveries();
    expect(hook.requests.map((r) => r.status), platform).toEqual([429]);
    const row = await t.w.db.db
      .selectFrom('destinations')
      .select(['next_send_at', 'status'])
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    expect(row.status).toBe('active');
    const waited = new Date(row.next_send_at).getTime() - before;
    expect(waited, platform).toBeGreaterThan(3590_000);
    expect(waited, platform).toBeLessThan(3610_000);
    const status = await getDestinationStatus(id);
    expect(status!.last_error, platform).toMatch(/asked to slow down \(HTTP 429\)\. Waiting 3600 s\./);
    // Let the message through now, as an hour later would.
    await sql`update destinations set next_send_at = now() where id = ${id}`.execute(t.w.db.db);
    await sql`update deliveries set next_attempt_at = now() where destination_id = ${id}`.execute(t.w.db.db);
    await drainDeliveries({ waitForRetries: true, timeoutMs: 5000 });
    expect(hook.delivered(), platform).toHaveLength(1);
  }
});
