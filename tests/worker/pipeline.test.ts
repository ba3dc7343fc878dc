// The whole pipeline against loopback fakes, counted at the receivers: store feed → poll → one-transaction ingest →
// fan-out with filters → delivery in each platform's format. Each review arrives once per matching destination;
// history is never dumped; a new destination gets a welcome and the last few reviews; an edit is announced once as an
// updated review; an incomplete poll does not move the watermark.
import { describe, expect, test } from 'vitest';
import { sql } from 'kysely';
import {
  addSource,
  createDestination,
  drainDeliveries,
  ensureApp,
  pollAppNow,
  pollNow,
  setDestinationPaused,
} from '@/server/monitor/service';
import { ALL_COUNTRIES, MAIN_STOREFRONTS } from '@/shared/storefronts';
import { SourceError } from '@/server/sources/types';
import { getDestinationStatus } from '@/server/destinations/records';
import { startEngine, engineOptionsFromEnv } from '@/server/monitor/engine';
import { daysAgo, marker, markersOf, tally, worldPerFile } from './helpers/world';

const t = worldPerFile({ title: 'Lumen Notes', firstAppId: 1000001 });

/** 30 reviews written over the last month: history, as far as any destination is concerned. */
function publishHistory() {
  for (let i = 1; i <= 30; i++) {
    t.w.feed.publish(t.app.appId, 'us', { title: `Old ${i}`, content: `history ${marker(i)}`, rating: (i % 5) + 1, updated: daysAgo(31 - i) });
  }
}

async function pollAndDeliver() {
  await pollAppNow(t.app);
  return drainDeliveries({ waitForRetries: true });
}

const isWelcome = (raw: string) => raw.includes('ARB is connected');

describe('a new destination', () => {
  test('gets a welcome naming the app and the last 5 reviews, oldest first — not the history', async () => {
    publishHistory();
    const hook = t.w.chat.hook('slack');
    const { id, created } = await createDestination({ platform: 'slack', url: hook.url, apps: [t.app] });
    expect(created).toBe(true);
    await pollAndDeliver();

    const got = hook.delivered();
    expect(got).toHaveLength(6);
    expect(isWelcome(got[0].raw)).toBe(true);
    expect(got[0].raw).toContain('Lumen Notes');
    expect(got.slice(1).map((r) => markersOf(r)[0])).toEqual([26, 27, 28, 29, 30].map(marker));

    const status = await getDestinationStatus(id);
    expect(status).toMatchObject({ platform: 'slack', status: 'active', welcome: 'delivered', delivered: 6, queued: 0, last_error: null });
    expect(status!.app).toMatchObject({ app_id: t.app.appId, title: 'Lumen Notes' });
    expect(JSON.stringify(status)).not.toContain(hook.url); // no secrets on the status
  });

  test('connected to every storefront, it waits for the first read of each: the last reviews come from the one that has them, whichever finished first', async () => {
    publishHistory(); // all in the US storefront
    const hook = t.w.chat.hook('slack');
    await createDestination({ platform: 'slack', url: hook.url, apps: [t.app], country: ALL_COUNTRIES });
    const sources = await t.w.db.db
      .selectFrom('monitored_sources')
      .select(['id', 'country'])
      .where('app_key', '=', `apple_app_store__${t.app.appId}`)
      .where('status', '=', 'active')
      .orderBy('id', 'desc')
      .execute();
    expect(sources.map((s) => s.country).sort()).toEqual([...MAIN_STOREFRONTS].sort());
    const us = sources.find((s) => s.country === 'us')!;
    const others = sources.filter((s) => s !== us);
    // Every storefront without reviews read first, one of them failing its first read: still nothing to welcome with.
    const failing = others.pop()!;
    for (const s of others) expect(await pollNow(s.id)).toMatchObject({ ok: true });
    const refused = { poll: async () => Promise.reject(new SourceError('the storefront answered 503', false)) };
    expect(await pollNow(failing.id, { adapterFor: () => refused as never })).toMatchObject({ ok: false });
    await drainDeliveries();
    expect(hook.delivered()).toHaveLength(0);

    await pollNow(us.id);
    await drainDeliveries({ waitForRetries: true });
    const got = hook.delivered();
    expect(got).toHaveLength(6);
    expect(isWelcome(got[0].raw)).toBe(true);
    expect(got.slice(1).map((r) => markersOf(r)[0])).toEqual([26, 27, 28, 29, 30].map(marker));
  });

  test('a storefront that fails its first read last still welcomes, with the reviews the others brought', async () => {
    publishHistory();
    const hook = t.w.chat.hook('mattermost');
    await createDestination({ platform: 'mattermost', url: hook.url, apps: [t.app], country: ALL_COUNTRIES, welcomeCount: 2 });
    const sources = await t.w.db.db
      .selectFrom('monitored_sources')
      .select(['id', 'country'])
      .where('app_key', '=', `apple_app_store__${t.app.appId}`)
      .where('status', '=', 'active')
      .orderBy('id')
      .execute();
    const last = sources.pop()!;
    for (const s of sources) await pollNow(s.id);
    await drainDeliveries();
    expect(hook.delivered()).toHaveLength(0);
    const refused = { poll: async () => Promise.reject(new SourceError('the storefront answered 503', false)) };
    await pollNow(last.id, { adapterFor: () => refused as never });
    await drainDeliveries({ waitForRetries: true });
    const got = hook.delivered();
    expect(got).toHaveLength(3);
    expect(isWelcome(got[0].raw)).toBe(true);
    expect(got.slice(1).map((r) => markersOf(r)[0])).toEqual([29, 30].map(marker));
  });

  test('connecting the same webhook to the same app again returns the same destination and no second welcome', async () => {
    publishHistory();
    const hook = t.w.chat.hook('discord');
    const first = await createDestination({ platform: 'discord', url: hook.url, apps: [t.app] });
    await pollAndDeliver();
    const again = await createDestination({ platform: 'discord', url: hook.url, apps: [t.app] });
    await pollAndDeliver();
    expect(again).toMatchObject({ id: first.id, created: false });
    expect(hook.delivered().filter((r) => isWelcome(r.raw))).toHaveLength(1);
    const n = await t.w.db.db
      .selectFrom('destination_apps')
      .select(sql<number>`count(*)::int`.as('n'))
      .where('app_key', '=', `apple_app_store__${t.app.appId}`)
      .executeTakeFirstOrThrow();
    expect(n.n).toBe(1);
  });

  test('with welcomeCount 0 gets only the intro; with backfill gets every stored review once', async () => {
    publishHistory();
    const quiet = t.w.chat.hook('webex');
    const full = t.w.chat.hook('mattermost');
    await createDestination({ platform: 'webex', url: quiet.url, apps: [t.app], welcomeCount: 0 });
    await createDestination({ platform: 'mattermost', url: full.url, apps: [t.app], backfill: true });
    await pollAndDeliver();
    expect(quiet.delivered()).toHaveLength(1);
    expect(isWelcome(quiet.delivered()[0].raw)).toBe(true);
    const counts = tally(full.delivered());
    expect(counts.size).toBe(30);
    expect([...counts.values()].every((n) => n === 1)).toBe(true);
  });
});

describe('new reviews', () => {
  test('arrive once per matching destination, filters respected, and only once however often we poll', async () => {
    publishHistory();
    const all = t.w.chat.hook('slack');
    const lowOnly = t.w.chat.hook('mattermost');
    const crashOnly = t.w.chat.hook('discord');
    const teams = t.w.chat.hook('msteams');
    await createDestination({ platform: 'slack', url: all.url, apps: [t.app], welcomeCount: 0 });
    await createDestination({ platform: 'mattermost', url: lowOnly.url, apps: [t.app], welcomeCount: 0, filters: { ratings: [1, 2] } });
    await createDestination({ platform: 'discord', url: crashOnly.url, apps: [t.app], welcomeCount: 0, filters: { keywords: ['CRASH'] } });
    await createDestination({ platform: 'msteams', url: teams.url, apps: [t.app], welcomeCount: 0, filters: { countries: ['gb'] } });
    await pollAndDeliver();
    for (const h of [all, lowOnly, crashOnly, teams]) h.requests.length = 0; // forget the welcomes

    const fresh: Array<{ i: number; rating: number; content: string }> = [];
    for (let i = 101; i <= 110; i++) {
      const rating = (i % 5) + 1;
      const content = i % 3 === 0 ? `It crashes on start ${marker(i)}` : `Lovely ${marker(i)}`;
      fresh.push({ i, rating, content });
      t.w.feed.publish(t.app.appId, 'us', { title: `New ${i}`, content, rating });
    }
    await pollAndDeliver();
    await pollAndDeliver(); // nothing changed: nothing more may arrive
    await pollAndDeliver();

    const expectSet = (pred: (f: (typeof fresh)[number]) => boolean) => fresh.filter(pred).map((f) => marker(f.i)).sort();
    const seen = (counts: Map<string, number>) => [...counts.keys()].sort();
    const a = tally(all.delivered());
    expect(seen(a)).toEqual(expectSet(() => true));
    expect([...a.values()].every((n) => n === 1)).toBe(true);
    const low = tally(lowOnly.delivered());
    expect(seen(low)).toEqual(expectSet((f) => f.rating <= 2));
    expect([...low.values()].every((n) => n === 1)).toBe(true);
    expect(seen(tally(crashOnly.delivered()))).toEqual(expectSet((f) => /crash/i.test(f.content)));
    expect(teams.delivered()).toHaveLength(0); // US reviews, GB-only destination
    // Nothing but successes: no receiver saw a request it had to refuse.
    expect([all, lowOnly, crashOnly, teams].flatMap((h) => h.requests).every((r) => r.status !== null && r.status < 300)).toBe(true);
  });

  test('a review written between connecting and the first poll is delivered exactly once', async () => {
    publishHistory();
    const hook = t.w.chat.hook('slack');
    await createDestination({ platform: 'slack', url: hook.url, apps: [t.app], welcomeCount: 5 });
    // Dated after the connection (the feed's times are to the second, so a little later than "now").
    t.w.feed.publish(t.app.appId, 'us', { content: `just now ${marker(500)}`, rating: 1, updated: new Date(Date.now() + 1500) });
    await pollAndDeliver();
    await pollAndDeliver();
    const counts = tally(hook.delivered());
    expect(counts.get(marker(500))).toBe(1);
    expect(counts.get(marker(1))).toBeUndefined(); // history stays history
  });

  test('a paused destination gets nothing; resumed, it gets what arrives next', async () => {
    const hook = t.w.chat.hook('webex');
    const { id } = await createDestination({ platform: 'webex', url: hook.url, apps: [t.app], welcomeCount: 0 });
    await pollAndDeliver();
    await setDestinationPaused(id, true);
    t.w.feed.publish(t.app.appId, 'us', { content: `while paused ${marker(1)}` });
    await pollAndDeliver();
    await setDestinationPaused(id, false);
    t.w.feed.publish(t.app.appId, 'us', { content: `after ${marker(2)}` });
    await pollAndDeliver();
    const counts = tally(hook.delivered());
    expect([...counts.keys()]).toEqual([marker(2)]);
  });
});

describe('a new source of an app already watched', () => {
  test('records its history quietly (no dump into existing destinations), then posts what is new — Google Play', async () => {
    const PLAY = { store: 'google_play_store' as const, appId: `com.example.notes${t.app.appId}` };
    await ensureApp({ ...PLAY, title: 'Notes for Android' });
    for (let i = 1; i <= 10; i++) t.w.play.publish(PLAY.appId, 'en', { text: `english history ${marker(i)}`, at: daysAgo(20 - i) });
    const hook = t.w.chat.hook('mattermost');
    await createDestination({ platform: 'mattermost', url: hook.url, apps: [PLAY], welcomeCount: 0 });
    await pollAppNow(PLAY);
    await drainDeliveries({ waitForRetries: true });
    expect(hook.delivered()).toHaveLength(1); // the intro only

    for (let i = 11; i <= 15; i++) t.w.play.publish(PLAY.appId, 'de', { text: `deutsche Geschichte ${marker(i)}`, at: daysAgo(20 - i) });
    await addSource({ ...PLAY, kind: 'play_public', language: 'de' });
    await pollAppNow(PLAY);
    await drainDeliveries({ waitForRetries: true });
    expect(hook.delivered()).toHaveLength(1); // German history stays history

    t.w.play.publish(PLAY.appId, 'de', { text: `ganz neu ${marker(16)}`, at: new Date(Date.now() + 1500) });
    await pollAppNow(PLAY);
    await pollAppNow(PLAY);
    await drainDeliveries({ waitForRetries: true });
    expect([...tally(hook.delivered()).entries()]).toEqual([[marker(16), 1]]);
  });
});

describe('edits', () => {
  test('an edited review is stored as history and announced once as an updated review, never as a new one', async () => {
    const hook = t.w.chat.hook('slack');
    await createDestination({ platform: 'slack', url: hook.url, apps: [t.app], welcomeCount: 0 });
    await pollAndDeliver();
    const r = t.w.feed.publish(t.app.appId, 'us', { title: 'Meh', content: `first take ${marker(7)}`, rating: 2 });
    await pollAndDeliver();
    t.w.feed.edit(t.app.appId, 'us', r.id, { content: `changed my mind ${marker(7)}`, rating: 5, updated: new Date(Date.now() + 2000) });
    await pollAndDeliver();
    await pollAndDeliver();

    const got = hook.delivered().filter((q) => markersOf(q).includes(marker(7)));
    expect(got).toHaveLength(2);
    expect(got[0].raw).toContain('first take');
    expect(got[1].raw).toContain('Updated review');
    expect(got[1].raw).toContain('changed my mind');
    const reviews = await t.w.db.db.selectFrom('reviews').select(['id', 'version', 'rating']).where('app_key', '=', `apple_app_store__${t.app.appId}`).execute();
    expect(reviews).toHaveLength(1);
    expect(reviews[0]).toMatchObject({ version: 1, rating: 5 });
    const history = await t.w.db.db.selectFrom('review_versions').select(['version', 'rating', 'body']).where('review_id', '=', reviews[0].id).execute();
    expect(history).toEqual([{ version: 0, rating: 2, body: `first take ${marker(7)}` }]);
  });
});

describe('watermark', () => {
  test('an incomplete poll (the feed\'s empty-page glitch) stores what it saw but keeps the watermark', async () => {
    const hook = t.w.chat.hook('slack');
    await createDestination({ platform: 'slack', url: hook.url, apps: [t.app], welcomeCount: 0 });
    for (let i = 1; i <= 60; i++) t.w.feed.publish(t.app.appId, 'us', { content: `h ${marker(i)}`, updated: daysAgo(2) });
    await pollAndDeliver();
    const source = () => t.w.db.db.selectFrom('monitored_sources').select(['watermark']).where('app_key', '=', `apple_app_store__${t.app.appId}`).executeTakeFirstOrThrow();
    const before = await source();
    expect(before.watermark).not.toBeNull();

    for (let i = 61; i <= 120; i++) t.w.feed.publish(t.app.appId, 'us', { content: `n ${marker(i)}`, updated: new Date(Date.now() + i) });
    t.w.feed.emptyPageOnce(t.app.appId, 'us', 2, 5); // page 2 keeps coming back empty
    await pollAndDeliver();
    const during = await source();
    expect(during.watermark!.getTime()).toBe(before.watermark!.getTime());

    await pollAndDeliver(); // the glitch is over (or not: either way nothing doubles)
    await pollAndDeliver();
    const counts = tally(hook.delivered());
    for (let i = 61; i <= 120; i++) expect(counts.get(marker(i))).toBe(1);
  });
});

describe('the engine running in this process', () => {
  test('welcomes a new destination without anyone calling poll or drain', async () => {
    publishHistory();
    const engine = startEngine(t.w.db.db, engineOptionsFromEnv({ idleMs: 200 }));
    try {
      const hook = t.w.chat.hook('msteams');
      await createDestination({ platform: 'msteams', url: hook.url, apps: [t.app], welcomeCount: 2 });
      const got = await hook.waitForDelivered(3, 10_000);
      expect(isWelcome(got[0].raw)).toBe(true);
    } finally {
      await engine.stop();
    }
  });
});
