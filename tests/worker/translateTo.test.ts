// A destination's translate_to, end to end through the real sender: a German review is stored and enriched on ingest,
// translated once through a loopback LibreTranslate, and every platform's message — the five chat platforms, a signed
// webhook and an e-mail through a real SMTP server — carries the translation and the sentiment. A review already in
// the destination's language, a destination without translate_to, a plan without translation and a translator that
// fails all still deliver, without a translation line.
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import { getDb } from '@/server/db/client';
import { setEnvForTests } from '@/server/env';
import { createDestination, drainDeliveries, ensureApp, pollAppNow, updateDestinationSettings } from '@/server/monitor/service';
import { engineOptionsFromEnv } from '@/server/monitor/engine';
import { claimDestinations, createDeliveryGroups, processDestination } from '@/server/monitor/deliveryWorker';
import { CHAT_PLATFORMS, type ChatHook, type ChatPlatform } from '../fakes/chatWebhooks';
import { startFakeLibreTranslate, type FakeLibreTranslate } from '../fakes/libreTranslate';
import { startFakeSmtp, type FakeSmtp } from '../fakes/smtp';
import { newOwner, type SignedInUser } from '../helpers/orgs';
import { marker, startWorld, type World } from './helpers/world';

let w: World;
let smtp: FakeSmtp;
let lt: FakeLibreTranslate;
let env: Record<string, string>;
let owner: SignedInUser;
let nextAppId = 3400001;
let app: { store: 'apple_app_store'; appId: string };

beforeAll(async () => {
  smtp = await startFakeSmtp();
  lt = await startFakeLibreTranslate();
  env = { SMTP_URL: smtp.url, LIBRETRANSLATE_URL: lt.url };
  w = await startWorld(env);
  owner = await newOwner('translateto');
}, 60_000);
afterAll(async () => {
  await w.close();
  await smtp.close();
  await lt.close();
});
beforeEach(async () => {
  app = { store: 'apple_app_store', appId: String(nextAppId++) };
  await ensureApp({ ...app, title: 'Wetter Fuchs' });
});

/** The settings startWorld set, with this file's. */
const worldEnv = () => ({ ITUNES_BASE_URL: w.stores.url, GOOGLE_PLAY_BASE_URL: w.stores.url, GOOGLE_PLAY_MIN_INTERVAL_MS: '0', ALLOW_PRIVATE_WEBHOOKS: '1', DELIVERY_PACING: 'off', ...env });

/** Readable text of a chat payload: JSON with Markdown escapes undone. */
const readable = (body: unknown) => JSON.stringify(body).replace(/\\\\(.)/g, '$1');

async function connect(platform: ChatPlatform | 'webhook', translateTo: string | null, orgId: string | null = owner.orgId): Promise<ChatHook> {
  const hook = w.chat.hook(platform);
  const d = await createDestination({ platform, url: hook.url, apps: [app], welcomeCount: 0, orgId });
  if (d.signingSecret) hook.signingSecret = d.signingSecret;
  if (translateTo) await updateDestinationSettings(d.id, { translateTo });
  return hook;
}

async function publishAndDeliver(content: string, title: string) {
  await pollAppNow(app); // the first poll only learns what is there
  await drainDeliveries({ waitForRetries: true });
  w.feed.publish(app.appId, 'us', { title, content, rating: 1, updated: new Date(Date.now() + 1000) });
  await pollAppNow(app);
  await drainDeliveries({ waitForRetries: true });
}

describe('translate_to', () => {
  test('every platform shows the translation and the sentiment; the review is translated once for all of them', async () => {
    const hooks = new Map<ChatPlatform | 'webhook', ChatHook>();
    for (const p of [...CHAT_PLATFORMS, 'webhook' as const]) hooks.set(p, await connect(p, 'en'));
    const mail = await createDestination({ platform: 'email', email: 'team-de@example.com', apps: [app], welcomeCount: 0, orgId: owner.orgId, addressConfirmed: true });
    await updateDestinationSettings(mail.id, { translateTo: 'en' });
    const untranslated = await connect('slack', null);
    const calls = lt.translateCalls().length;

    const body = `Die App stürzt seit dem Update bei jedem Start ab und ist völlig unbrauchbar ${marker(1)}`;
    await publishAndDeliver(body, 'Absturz beim Start');

    const stored = await (await getDb()).selectFrom('reviews').select(['text_language', 'sentiment']).where('app_key', '=', `apple_app_store__${app.appId}`).executeTakeFirstOrThrow();
    expect(stored.text_language).toBe('de');
    const sentiment = stored.sentiment![0].toUpperCase() + stored.sentiment!.slice(1);

    for (const [p, hook] of hooks) {
      const message = hook.delivered().at(-1)!;
      expect(message, p).toBeDefined();
      const text = readable(message.body);
      expect(text, p).toContain(body);
      if (p === 'webhook') {
        expect((message.body as { data: Record<string, unknown> }).data).toMatchObject({
          sentiment: stored.sentiment,
          translation: { language: 'en', title: '[en] Absturz beim Start', body: `[en] ${body}` },
        });
        expect(message.signatureValid).toBe(true);
      } else {
        expect(text, p).toContain('Translation (English)');
        expect(text, p).toContain(`[en] ${body}`);
        expect(text, p).toContain('[en] Absturz beim Start');
        expect(text, p).toContain('Sentiment');
        expect(text, p).toContain(sentiment);
      }
    }
    await expect.poll(() => smtp.messages.some((m) => m.text.includes(marker(1)))).toBe(true);
    const last = smtp.messages.find((m) => m.text.includes(marker(1)))!;
    expect(last.text).toContain('Translation (English):');
    expect(last.text).toContain(`[en] ${body}`);
    expect(last.html).toContain('<strong>Translation (English)</strong>');
    expect(last.text).toContain(`Sentiment: ${sentiment}`);

    const plain = readable(untranslated.delivered().at(-1)!.body);
    expect(plain).toContain(body);
    expect(plain).not.toContain('Translation (');
    expect(plain).toContain('Sentiment');
    // One call for the review (title and body together), whichever destinations asked: the rest came from the cache.
    expect(lt.translateCalls().slice(calls)).toEqual([{ q: ['Absturz beim Start', body], source: 'de', target: 'en' }]);
  });

  test('a translator that fails, a review already in the language and a plan without translation: sent, untranslated', async () => {
    const english = await connect('mattermost', 'en');
    lt.failTranslations(1);
    const calls = lt.translateCalls().length;
    await publishAndDeliver(`Die Synchronisierung geht nicht mehr ${marker(2)}`, 'Kaputt');
    expect(lt.translateCalls().length).toBe(calls + 1); // the failed call: the message did not wait for another
    expect(readable(english.delivered().at(-1)!.body)).toContain(marker(2));
    expect(readable(english.delivered().at(-1)!.body)).not.toContain('Translation (');

    // An English review: the English destination shows it as it is, the German one translated.
    const german = await connect('discord', 'de');
    const body = `Crashes every time I open it since the update ${marker(3)}`;
    w.feed.publish(app.appId, 'us', { title: 'Broken', content: body, rating: 1, updated: new Date(Date.now() + 2000) });
    await pollAppNow(app);
    await drainDeliveries({ waitForRetries: true });
    expect(readable(english.delivered().at(-1)!.body)).toContain(body);
    expect(readable(english.delivered().at(-1)!.body)).not.toContain('Translation (');
    expect(readable(german.delivered().at(-1)!.body)).toContain(`[de] ${body}`);
    expect(readable(german.delivered().at(-1)!.body)).toContain('Translation (German)');

    // A Free plan (billing on) has no translation: nothing is asked of the translator.
    const free = await newOwner('translatefree');
    const restore = setEnvForTests({ ...worldEnv(), STRIPE_SECRET_KEY: 'sk_test_translate' });
    try {
      app = { store: 'apple_app_store', appId: String(nextAppId++) };
      await ensureApp({ ...app, title: 'Wetter Fuchs' });
      const hook = await connect('webex', 'en', free.orgId);
      const before = lt.translateCalls().length;
      await publishAndDeliver(`Zu viele Werbeanzeigen in der App ${marker(4)}`, 'Werbung');
      expect(readable(hook.delivered().at(-1)!.body)).toContain(marker(4));
      expect(readable(hook.delivered().at(-1)!.body)).not.toContain('Translation (');
      expect(lt.translateCalls().length).toBe(before);
    } finally {
      restore();
    }
  });

  test('a translator slower than a hold: the hold still sends (its time does not count), so a slow translator cannot starve the channel', async () => {
    const hook = await connect('slack', 'en');
    await pollAppNow(app);
    await drainDeliveries({ waitForRetries: true });
    w.feed.publish(app.appId, 'us', { title: 'Langsam', content: `Die App ist sehr langsam geworden ${marker(5)}`, rating: 2, updated: new Date(Date.now() + 1000) });
    await pollAppNow(app);
    lt.delayTranslations(600);
    try {
      const db = await getDb();
      const opts = engineOptionsFromEnv({ workerId: 'slow-translator' });
      const [claimed] = await claimDestinations(db, opts.workerId, 100, opts.leaseMs).then((all) => all.filter((d) => d.translate_to === 'en'));
      expect(claimed, 'the destination was claimed').toBeTruthy();
      // A hold of 300 ms, the translation takes 600: the review must still go out in this hold.
      const held = await processDestination(db, claimed, { ...opts, groups: createDeliveryGroups(db, opts.workerId, opts.leaseMs), maxHoldMs: 300 });
      expect(held.sent).toBe(1);
      expect(readable(hook.delivered().at(-1)!.body)).toContain(`[en] Die App ist sehr langsam geworden ${marker(5)}`);
    } finally {
      lt.delayTranslations(0);
      await drainDeliveries({ waitForRetries: true });
    }
  });
});
