// A store format change must never look like "no new reviews". Fed an App Store feed whose entries cannot be read
// (no date anywhere on the page), a poll fails instead of reporting an empty page: the watermark stays, /api/health
// counts the source, and the destination's public status tells the owner in plain words; once the feed is readable
// again the reviews written meanwhile arrive, exactly once. Entries that only lack their own date (Apple's feed in
// 2018–2020) are read with the page's date: history on a first poll, new reviews afterwards.
import { describe, expect, test } from 'vitest';
import { getDb } from '@/server/db/client';
import { appKey } from '@/server/monitor/apps';
import { counters } from '@/server/monitor/counters';
import { createDestination, drainDeliveries, pollAppNow } from '@/server/monitor/service';
import { marker, tally, worldPerFile } from './helpers/world';

const t = worldPerFile({
  title: 'Kestrel Notes',
  firstAppId: 3300001,
  api: true,
  beforeEachTest: (world) => {
    world.feed.traps.noEntryDates = false;
    world.feed.traps.noFeedDate = false;
  },
});

const hoursAgo = (h: number) => new Date(Date.now() - h * 3600_000);

async function watermark(): Promise<Date | null> {
  const db = await getDb();
  const row = await db.selectFrom('monitored_sources').select('watermark').where('app_key', '=', appKey(t.app)).executeTakeFirstOrThrow();
  return row.watermark;
}

async function health(): Promise<{ sources: { format_errors: number }; counters: { format_errors: number } }> {
  const res = await fetch(`${t.api.url}/api/health`);
  return ((await res.json()) as { data: { sources: { format_errors: number }; counters: { format_errors: number } } }).data;
}

async function publicStatus(id: string): Promise<Record<string, unknown>> {
  const res = await fetch(`${t.api.url}/api/v1/public/destination/${id}`);
  expect(res.status).toBe(200);
  return ((await res.json()) as { data: Record<string, unknown> }).data;
}

describe('a feed with entries but no readable review', () => {
  test('fails the poll, keeps the watermark, shows in /api/health and on the destination status, then recovers', async () => {
    t.w.feed.publish(t.app.appId, 'us', { content: `old ${marker(1)}`, updated: hoursAgo(3) });
    const hook = t.w.chat.hook('slack');
    const { id } = await createDestination({ platform: 'slack', url: hook.url, apps: [t.app], welcomeCount: 0 });
    await pollAppNow(t.app);
    await drainDeliveries({ waitForRetries: true });
    hook.requests.length = 0;
    const before = await watermark();
    expect(before).not.toBeNull();
    const formatErrorsBefore = counters().format_errors;
    expect((await publicStatus(id)).source_problem).toBeNull();

    // The format changes: nothing on the page carries a date any more.
    t.w.feed.traps.noEntryDates = true;
    t.w.feed.traps.noFeedDate = true;
    t.w.feed.publish(t.app.appId, 'us', { content: `during ${marker(2)}`, updated: new Date() });
    const [outcome] = await pollAppNow(t.app);
    expect(outcome).toMatchObject({ ok: false, permanent: false });
    expect(outcome && !outcome.ok && outcome.error).toMatch(/changed its format/);
    expect((await watermark())?.getTime()).toBe(before!.getTime());

    const h = await health();
    expect(h.sources.format_errors).toBe(1);
    expect(h.counters.format_errors).toBe(formatErrorsBefore + 1);
    const status = await publicStatus(id);
    expect(status.source_problem).toBe(
      'App Store changed the format of its reviews for Kestrel Notes (US storefront), so ARB cannot read new reviews there right now. ' +
        'We have been alerted; reviews written meanwhile will be posted once it can be read again.',
    );
    // The owner is told in words, not with the parser's details.
    expect(String(status.source_problem)).not.toMatch(/entries|rating from 1 to 5/);

    // Readable again: the review written during the outage arrives once, and the problem is gone.
    t.w.feed.traps.noEntryDates = false;
    t.w.feed.traps.noFeedDate = false;
    const [recovered] = await pollAppNow(t.app);
    expect(recovered).toMatchObject({ ok: true, inserted: 1 });
    await drainDeliveries({ waitForRetries: true });
    expect([...tally(hook.delivered())]).toEqual([[marker(2), 1]]);
    expect((await health()).sources.format_errors).toBe(0);
    expect((await publicStatus(id)).source_problem).toBeNull();
  });
});

describe("entries without their own date (Apple's feed in 2018–2020)", () => {
  test('are history on the first poll and new afterwards, each announced once', async () => {
    t.w.feed.traps.noEntryDates = true;
    for (let i = 1; i <= 3; i++) t.w.feed.publish(t.app.appId, 'us', { content: `history ${marker(10 + i)}`, updated: hoursAgo(i) });
    const hook = t.w.chat.hook('discord');
    await createDestination({ platform: 'discord', url: hook.url, apps: [t.app], welcomeCount: 0 });
    const [first] = await pollAppNow(t.app);
    expect(first).toMatchObject({ ok: true, inserted: 3, deliveries: 0 });
    await drainDeliveries({ waitForRetries: true });
    expect(tally(hook.delivered()).size).toBe(0); // the welcome intro only: no history announced as new

    t.w.feed.publish(t.app.appId, 'us', { content: `fresh ${marker(20)}`, updated: new Date() });
    const [second] = await pollAppNow(t.app);
    expect(second).toMatchObject({ ok: true, inserted: 1, edited: 0 });
    const [third] = await pollAppNow(t.app);
    expect(third).toMatchObject({ ok: true, inserted: 0, edited: 0 });
    await drainDeliveries({ waitForRetries: true });
    expect([...tally(hook.delivered())]).toEqual([[marker(20), 1]]);
  });
});
