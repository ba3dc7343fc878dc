// Store text that PostgreSQL refuses (U+0000) or cannot hold (a lone surrogate, half of an emoji) must never stop an
// app's ingestion. Each of the four sources — the App Store feed, App Store Connect, public Google Play and the Google
// Play Developer API — is fed, in its own format through its loopback fake, a review with "\u0000" and "\uD800" in its
// title, body, author (and developer reply where the store has one) next to an ordinary review: the poll succeeds, the
// odd review is stored cleaned (NUL removed, the lone surrogate replaced by U+FFFD), both are delivered, and the next
// poll's review too. Before cleanText, the database refused the poll's statement and every later poll failed with it.
// Defence in depth: a review the database still refuses (here one that no adapter cleaned) is left out with a logged
// reason, and the poll stores and delivers the others.
import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest';
import { setEnvForTests } from '@/server/env';
import { addSource, createDestination, drainDeliveries, ensureApp, pollAppNow, pollNow } from '@/server/monitor/service';
import { appKey } from '@/server/monitor/apps';
import { clearGoogleTokenCache } from '@/server/sources/playDeveloper';
import type { NormalizedReview, SourceAdapter } from '@/server/sources/types';
import { startFakeServer, type FakeServer } from '../fakes/http';
import { appStoreConnectRoutes, createAppStoreConnect, createAppStoreConnectKey, type AppStoreConnectFake, type AppStoreConnectKey } from '../fakes/appStoreConnect';
import { androidPublisherRoutes, createAndroidPublisher, createServiceAccount, type AndroidPublisherFake, type ServiceAccountKey } from '../fakes/androidPublisher';
import type { ChatHook } from '../fakes/chatWebhooks';
import { marker, startWorld, tally, type World } from './helpers/world';

let w: World;
let official: FakeServer;
let asc: AppStoreConnectFake;
let play: AndroidPublisherFake;
let ascKey: AppStoreConnectKey;
let account: ServiceAccountKey;

beforeAll(async () => {
  [ascKey, account] = await Promise.all([createAppStoreConnectKey(), createServiceAccount('arb-reviews')]);
  asc = createAppStoreConnect([ascKey]);
  play = createAndroidPublisher([account]);
  official = await startFakeServer([appStoreConnectRoutes(asc), androidPublisherRoutes(play)]);
  w = await startWorld({ APPSTORE_CONNECT_BASE_URL: official.url, ANDROID_PUBLISHER_BASE_URL: official.url, GOOGLE_OAUTH_TOKEN_URL: `${official.url}/token` });
  clearGoogleTokenCache();
}, 60_000);
afterAll(async () => {
  await w?.close();
  await official?.close();
});

/** What the stores sent: NUL and a lone high surrogate in the middle of the words. */
const odd = (words: string) => `${words.replace(' ', ' \u0000')} \uD800end`;
/** What is stored and posted: NUL gone, the lone surrogate the replacement character. */
const cleaned = (words: string) => `${words} \uFFFDend`;

const later = (ms: number) => new Date(Date.now() + ms);
let nextApp = 4_100_000;

type Case = {
  name: string;
  /** A fresh app watched through this source (its first poll done), and how to publish a review on it. */
  setUp(): Promise<{ app: { store: 'apple_app_store' | 'google_play_store'; appId: string }; sourceId?: number; publish(n: number, bad: boolean): void }>;
  hasTitle: boolean;
  hasReply: boolean;
};

const cases: Case[] = [
  {
    name: 'App Store feed (RSS JSON)',
    hasTitle: true,
    hasReply: false,
    async setUp() {
      const app = { store: 'apple_app_store' as const, appId: String(nextApp++) };
      await ensureApp({ ...app, title: 'Odd Feed' });
      return {
        app,
        publish: (n, bad) =>
          w.feed.publish(app.appId, 'us', bad
            ? { title: odd('Odd title'), content: odd(`Odd body ${marker(n)}`), author: odd('Odd author'), updated: later(n * 10) }
            : { title: 'Plain', content: `Plain ${marker(n)}`, updated: later(n * 10) }),
      };
    },
  },
  {
    name: 'App Store Connect API (JSON:API)',
    hasTitle: true,
    hasReply: true,
    async setUp() {
      const app = { store: 'apple_app_store' as const, appId: String(nextApp++) };
      await ensureApp({ ...app, title: 'Odd Connect' });
      asc.addApp(app.appId);
      const source = await addSource({ ...app, kind: 'appstore_connect', credentials: { kind: 'appstore_connect', issuerId: ascKey.issuerId, keyId: ascKey.keyId, privateKeyPem: ascKey.privateKeyPem } });
      return {
        app,
        sourceId: source.id,
        publish: (n, bad) =>
          asc.publish(app.appId, bad
            ? {
                title: odd('Odd title'),
                body: odd(`Odd body ${marker(n)}`),
                reviewerNickname: odd('Odd author'),
                createdDate: later(n * 1000),
                response: { id: `resp-${n}-${app.appId}`, responseBody: odd('Odd reply'), lastModifiedDate: later(n * 1000), state: 'PUBLISHED' },
              }
            : { title: 'Plain', body: `Plain ${marker(n)}`, createdDate: later(n * 1000) }),
      };
    },
  },
  {
    name: 'Google Play (batchexecute)',
    hasTitle: false,
    hasReply: true,
    async setUp() {
      const app = { store: 'google_play_store' as const, appId: `com.example.odd${nextApp++}` };
      await ensureApp({ ...app, title: 'Odd Play' });
      return {
        app,
        publish: (n, bad) =>
          w.play.publish(app.appId, 'en', bad
            ? { text: odd(`Odd body ${marker(n)}`), userName: odd('Odd author'), at: later(n * 1000), reply: { text: odd('Odd reply'), at: later(n * 1000) } }
            : { text: `Plain ${marker(n)}`, at: later(n * 1000) }),
      };
    },
  },
  {
    name: 'Google Play Developer API',
    hasTitle: true,
    hasReply: true,
    async setUp() {
      const app = { store: 'google_play_store' as const, appId: `com.example.odd${nextApp++}` };
      await ensureApp({ ...app, title: 'Odd Developer' });
      play.addApp(account, app.appId);
      const source = await addSource({ ...app, kind: 'play_developer', credentials: { kind: 'play_developer', serviceAccountJson: account.json } });
      return {
        app,
        sourceId: source.id,
        publish: (n, bad) =>
          play.publish(account, app.appId, bad
            ? { title: odd('Odd title'), body: odd(`Odd body ${marker(n)}`), authorName: odd('Odd author'), lastModified: later(n * 1000), developerComment: { text: odd('Odd reply'), lastModified: later(n * 1000) } }
            : { title: 'Plain', body: `Plain ${marker(n)}`, lastModified: later(n * 1000) }),
      };
    },
  },
];

async function poll(app: { store: 'apple_app_store' | 'google_play_store'; appId: string }, sourceId?: number) {
  const outcomes = sourceId === undefined ? await pollAppNow(app) : [await pollNow(sourceId)];
  for (const o of outcomes) expect(o, JSON.stringify(o)).toMatchObject({ ok: true });
  await drainDeliveries({ waitForRetries: true });
  return outcomes;
}

async function storedOf(app: { store: string; appId: string }) {
  return w.db.db.selectFrom('reviews').select(['store_review_id', 'author_name', 'title', 'body', 'reply_text']).where('app_key', '=', appKey(app as never)).execute();
}

describe.each(cases)('a review with U+0000 and a lone surrogate — $name', (c) => {
  test('is stored cleaned; it, the next review of the same poll and the next poll’s review are delivered', async () => {
    const { app, sourceId, publish } = await c.setUp();
    const hook: ChatHook = w.chat.hook('slack');
    await createDestination({ platform: 'slack', url: hook.url, apps: [app], welcomeCount: 0 });
    await poll(app, sourceId); // the first poll: nothing yet, the watermark is set

    publish(1, true);
    publish(2, false);
    await poll(app, sourceId);
    const stored = await storedOf(app);
    expect(stored).toHaveLength(2);
    const bad = stored.find((r) => r.body.includes(marker(1)))!;
    expect(bad).toMatchObject({
      author_name: cleaned('Odd author'),
      body: cleaned(`Odd body ${marker(1)}`),
      title: c.hasTitle ? cleaned('Odd title') : null,
      reply_text: c.hasReply ? cleaned('Odd reply') : null,
    });
    expect([...tally(hook.delivered()).entries()].sort()).toEqual([[marker(1), 1], [marker(2), 1]]);
    const posted = hook.delivered().find((r) => r.raw.includes(marker(1)))!;
    expect(posted.raw).not.toMatch(/\\u0000|\\ud800/i);

    // Later polls go on as before: the next review arrives, nothing is posted twice.
    publish(3, false);
    await poll(app, sourceId);
    await poll(app, sourceId);
    expect([...tally(hook.delivered()).entries()].sort()).toEqual([[marker(1), 1], [marker(2), 1], [marker(3), 1]]);
  });
});

describe('a review the database refuses all the same', () => {
  test('is left out with its reason logged; the poll stores and delivers the others, and later polls go on', async () => {
    const app = { store: 'apple_app_store' as const, appId: String(nextApp++) };
    await ensureApp({ ...app, title: 'Refused Review' });
    const hook = w.chat.hook('slack');
    await createDestination({ platform: 'slack', url: hook.url, apps: [app], welcomeCount: 0 });
    await poll(app);
    const sourceId = (await w.db.db.selectFrom('monitored_sources').select('id').where('app_key', '=', appKey(app)).executeTakeFirstOrThrow()).id;

    // An adapter that does not clean (a bug, or a value no rule foresaw) hands the ingest a NUL.
    const review = (n: number, body: string): NormalizedReview => ({
      store: 'apple_app_store', appId: app.appId, storeReviewId: `refused-${app.appId}-${n}`, country: 'us', language: null,
      authorName: 'Someone', title: null, body, rating: 3, appVersion: null, createdAt: null, updatedAt: later(n * 1000),
      replyText: null, replyUpdatedAt: null, permalink: null,
    });
    const reviews = [review(3, `plain ${marker(3)}`), review(2, `raw \u0000 ${marker(2)}`), review(1, `plain ${marker(1)}`)];
    const adapter: SourceAdapter = { kind: 'appstore_feed', poll: async () => ({ reviews, complete: true }) };

    const restore = setEnvForTests({ LOG_LEVEL: 'error' });
    const lines: string[] = [];
    const spy = vi.spyOn(process.stderr, 'write').mockImplementation(((chunk: string | Uint8Array) => {
      lines.push(String(chunk));
      return true;
    }) as typeof process.stderr.write);
    let outcome;
    try {
      outcome = await pollNow(sourceId, { adapterFor: () => adapter });
    } finally {
      spy.mockRestore();
      restore();
    }
    expect(outcome).toMatchObject({ ok: true, inserted: 2 });
    const logged = lines.filter((l) => l.includes('review not stored')).map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(logged).toHaveLength(1);
    expect(logged[0]).toMatchObject({ level: 'error', sourceId, app: appKey(app), storeReviewId: `refused-${app.appId}-2` });
    expect(String(logged[0].reason)).toMatch(/0x00|invalid byte sequence/);

    await drainDeliveries({ waitForRetries: true });
    expect([...tally(hook.delivered()).entries()].sort()).toEqual([[marker(1), 1], [marker(3), 1]]);

    // The next poll of the real feed goes on.
    w.feed.publish(app.appId, 'us', { content: `next ${marker(4)}`, updated: later(5000) });
    await poll(app);
    expect([...tally(hook.delivered()).entries()].sort()).toEqual([[marker(1), 1], [marker(3), 1], [marker(4), 1]]);
  });
});
