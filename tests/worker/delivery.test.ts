// How the delivery worker treats each platform's answers, counted at the receivers: 429 storms are waited out
// (Retry-After / Discord's retry_after honoured to the millisecond), 5xx and Webex 423 are retried, a message the
// platform rejects is dropped without blocking the queue, a "gone" webhook disables its destination with a reason in
// plain words, and each platform is paced.
import { describe, expect, test } from 'vitest';
import { createDestination, drainDeliveries, pollAppNow } from '@/server/monitor/service';
import { getDestinationStatus } from '@/server/destinations/records';
import { counters } from '@/server/monitor/counters';
import { CHAT_PLATFORMS, type ChatHook, type ChatPlatform } from '../fakes/chatWebhooks';
import { marker, tally, worldPerFile } from './helpers/world';

const t = worldPerFile({ title: 'Pebble Weather', firstAppId: 2000001, api: true });

/** Connects `hook` with no welcome reviews, runs the first poll and sends the intro, then forgets it. */
async function connect(hook: ChatHook) {
  const d = await createDestination({ platform: hook.platform, url: hook.url, apps: [t.app], welcomeCount: 0 });
  await pollAppNow(t.app);
  await drainDeliveries({ waitForRetries: true });
  hook.requests.length = 0;
  return d;
}

function publish(from: number, to: number) {
  for (let i = from; i <= to; i++) t.w.feed.publish(t.app.appId, 'us', { content: `review ${marker(i)}`, rating: 3, updated: new Date(Date.now() + i) });
}

/** Time from each refused request to the next request to the same hook. */
function gapsAfter(hook: ChatHook, statuses: number[]): Array<{ gap: number }> {
  const out: Array<{ gap: number }> = [];
  hook.requests.forEach((r, i) => {
    const next = hook.requests[i + 1];
    if (next && r.status !== null && statuses.includes(r.status)) out.push({ gap: next.receivedAt - r.receivedAt });
  });
  return out;
}

describe('rate limits', () => {
  test('a 429 storm on every platform is waited out: Retry-After honoured, nothing lost, nothing doubled', async () => {
    const hooks = new Map<ChatPlatform, ChatHook>();
    for (const p of CHAT_PLATFORMS) {
      const hook = t.w.chat.hook(p);
      hooks.set(p, hook);
      await connect(hook);
      // Discord says how long in its JSON body (fractions of a second); the others in Retry-After (seconds).
      hook.script({ kind: 'rate_limit', retryAfter: p === 'discord' ? 0.4 : 1 }, 3);
    }
    hooks.get('webex')!.script({ kind: 'locked', retryAfter: 1 }, 1); // Webex's own "slow down"
    publish(1, 6);
    await pollAppNow(t.app);
    await drainDeliveries({ waitForRetries: true, timeoutMs: 30_000 });

    for (const [p, hook] of hooks) {
      const counts = tally(hook.delivered());
      expect([...counts.keys()].sort(), p).toEqual([1, 2, 3, 4, 5, 6].map(marker).sort());
      expect([...counts.values()].every((n) => n === 1), p).toBe(true);
      const waited = hook.requests.filter((r) => r.status === 429 || r.status === 423);
      expect(waited.length, p).toBe(p === 'webex' ? 4 : 3);
      const minGap = p === 'discord' ? 400 : 1000;
      for (const { gap } of gapsAfter(hook, [429, 423])) expect(gap, p).toBeGreaterThanOrEqual(minGap);
    }
    expect(counters().retried).toBeGreaterThanOrEqual(16);
  });

  test('each platform is paced: Teams at most 4 at once, then one every 250 ms', async () => {
    const hook = t.w.chat.hook('msteams');
    await connect(hook);
    publish(1, 8);
    await pollAppNow(t.app);
    await drainDeliveries({ waitForRetries: true, pacing: 'platform', timeoutMs: 20_000 });
    expect(hook.delivered()).toHaveLength(8);
    const times = hook.requests.map((r) => r.receivedAt);
    // Whatever the burst did, 8 messages at 4/s with a burst of 4 cannot take less than 4 × 250 ms.
    expect(times[7] - times[0]).toBeGreaterThanOrEqual(950);
    for (let i = 5; i < 8; i++) expect(times[i] - times[i - 1]).toBeGreaterThanOrEqual(200);
  });
});

describe('failures', () => {
  test('a 5xx is retried with backoff and the review still arrives exactly once', async () => {
    const hook = t.w.chat.hook('mattermost');
    await connect(hook);
    hook.script({ kind: 'server_error', status: 503 }, 2);
    publish(1, 3);
    await pollAppNow(t.app);
    await drainDeliveries({ waitForRetries: true, retryBaseMs: 200, timeoutMs: 20_000 });
    const counts = tally(hook.delivered());
    expect([...counts.entries()].sort()).toEqual([1, 2, 3].map((i) => [marker(i), 1]).sort());
    const [first, second] = gapsAfter(hook, [503]);
    expect(first.gap).toBeGreaterThanOrEqual(100); // 200 ms × jitter 50–100 %
    expect(second.gap).toBeGreaterThanOrEqual(200); // doubled
  });

  test('a message the platform rejects is dropped (not retried) and the next one still goes', async () => {
    const hook = t.w.chat.hook('slack');
    const { id } = await connect(hook);
    hook.script({ kind: 'invalid_payload' }, 1);
    publish(1, 2);
    await pollAppNow(t.app);
    await drainDeliveries({ waitForRetries: true });
    expect(hook.requests.map((r) => r.status)).toEqual([400, 200]);
    const status = await getDestinationStatus(id);
    expect(status).toMatchObject({ status: 'active', queued: 0 });
    expect(status!.last_error).toBeNull(); // a delivery succeeded since
  });

  test.each(CHAT_PLATFORMS)('%s: a webhook that is gone disables its destination and says why, in plain words', async (platform) => {
    const hook = t.w.chat.hook(platform);
    const { id } = await connect(hook);
    hook.setDefault({ kind: 'gone' });
    publish(1, 3);
    await pollAppNow(t.app);
    await drainDeliveries({ waitForRetries: true });
    expect(hook.requests).toHaveLength(1); // the first refusal stops it: no hammering a dead webhook

    const status = await getDestinationStatus(id);
    expect(status!.status).toBe('disabled');
    // Telegram's bot is refused a message (blocked, kicked), the others a webhook.
    expect(status!.status_reason).toMatch(/refused the (webhook|message): .*[Cc]onnect it again/);
    expect(status!.status_reason).not.toContain(hook.url);
    expect(status!.queued).toBe(0);

    publish(4, 4);
    await pollAppNow(t.app);
    await drainDeliveries({ waitForRetries: true });
    expect(hook.requests).toHaveLength(1);
  });
});

describe('/api/health', () => {
  test('reports the database, the queue and this process\'s counters', async () => {
    const res = await fetch(`${t.api.url}/api/health`);
    expect(res.status).toBe(200);
    const { data } = (await res.json()) as { data: Record<string, unknown> };
    expect(data).toMatchObject({ status: 'ok', database: 'ok', queue: { depth: 0, due: 0, oldest_pending_age_seconds: null } });
    const c = data.counters as Record<string, number>;
    for (const k of ['polled', 'ingested', 'delivered', 'retried', 'failed']) expect(typeof c[k]).toBe('number');
    expect(c.delivered).toBeGreaterThan(0);
  });

  test('shows a queue that is falling behind', async () => {
    const hook = t.w.chat.hook('webex');
    await connect(hook);
    hook.setDefault({ kind: 'server_error' });
    publish(1, 2);
    await pollAppNow(t.app);
    await drainDeliveries(); // one failed attempt; the rest waits for its backoff
    const { data } = (await (await fetch(`${t.api.url}/api/health`)).json()) as { data: { queue: { depth: number; oldest_pending_age_seconds: number } } };
    expect(data.queue.depth).toBe(2);
    expect(data.queue.oldest_pending_age_seconds).toBeGreaterThanOrEqual(0);
  });
});
