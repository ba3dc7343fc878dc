// POST v1/org/reviews/{id}/translate through the real route and database (PGlite: HTTP behaviour, vitest.config.ts), with a loopback
// LibreTranslate: the translation, the cache (one call for two requests), a review already in the language, another
// organisation's review (404), bad input (400), the words when nothing is configured (503), a failing translator
// (502), and the plan without translation (402 naming the plan).
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { getDb } from '@/server/db/client';
import { TRANSLATION_NOT_CONFIGURED } from '@/shared/ai';
import { startApiWorld, type ApiWorld } from '../helpers/apiWorld';
import { newOwner, type SignedInUser } from '../helpers/orgs';
import { call } from '../helpers/request';
import { appWith } from '../helpers/seedReviews';
import { startFakeLibreTranslate, type FakeLibreTranslate } from '../fakes/libreTranslate';

let w: ApiWorld;
let lt: FakeLibreTranslate;
const env = () => ({ LIBRETRANSLATE_URL: lt.url, LLM_BASE_URL: undefined, LLM_MODEL: undefined, STRIPE_SECRET_KEY: undefined, TRUST_PROXY: '1' });

beforeAll(async () => {
  lt = await startFakeLibreTranslate();
  w = await startApiWorld(env(), () => lt.close());
}, 60_000);
afterAll(async () => {
  await w?.close();
});

let n = 0;
const ip = () => `198.18.7.${++n}`;
type Translation = { review_id: string; language: string; title: string | null; body: string; provider: string };
const translate = (u: SignedInUser, id: string, body: unknown) => call<Translation>(w.api, 'POST', `/api/v1/org/reviews/${id}/translate`, body, { token: u.token, ip: ip() });

/** The owner's German and English reviews (text languages as ingest detects them). */
async function reviews(owner: SignedInUser) {
  const key = await appWith(owner, 'google_play_store', [
    { title: 'Super', body: 'Die beste Notiz-App, die ich kenne.', hoursAgo: 1, language: 'de' },
    { body: 'Works great on my tablet.', hoursAgo: 2 },
  ]);
  const db = await getDb();
  const rows = await db.selectFrom('reviews').select(['id', 'body']).where('app_key', '=', key).orderBy('id').execute();
  await db.updateTable('reviews').set({ text_language: 'de' }).where('id', '=', rows[0].id).execute();
  await db.updateTable('reviews').set({ text_language: 'en' }).where('id', '=', rows[1].id).execute();
  return { german: String(rows[0].id), english: String(rows[1].id) };
}

describe('POST v1/org/reviews/{id}/translate', () => {
  test('translates title and body once; the second request is answered from the cache; English stays as written', async () => {
    const owner = await newOwner('tr');
    const { german, english } = await reviews(owner);
    const calls = lt.translateCalls().length;
    const first = await translate(owner, german, { language: 'EN' });
    expect(first.status, first.text).toBe(200);
    expect(first.json.data).toEqual({ review_id: german, language: 'en', title: '[en] Super', body: '[en] Die beste Notiz-App, die ich kenne.', provider: 'libretranslate' });
    expect((await translate(owner, german, { language: 'en' })).json.data).toEqual(first.json.data);
    expect(lt.translateCalls().slice(calls)).toEqual([{ q: ['Super', 'Die beste Notiz-App, die ich kenne.'], source: 'de', target: 'en' }]);

    const same = await translate(owner, english, { language: 'en' });
    expect(same.json.data).toMatchObject({ body: 'Works great on my tablet.', provider: 'original' });
    expect(lt.translateCalls().length).toBe(calls + 1);
  });

  test("another organisation's review is not found; bad input is a 400 saying what to send", async () => {
    const owner = await newOwner('tr404');
    const { german } = await reviews(owner);
    const stranger = await newOwner('tr404b');
    const r = await translate(stranger, german, { language: 'en' });
    expect(r.status).toBe(404);
    for (const [body, message] of [
      [{}, /language must be a language code like "en"/],
      [{ language: 'English please' }, /language must be a language code like "en"/],
      [{ language: 7 }, /language must be a language code/],
    ] as const) {
      const bad = await translate(owner, german, body);
      expect(bad.status, bad.text).toBe(400);
      expect(bad.json.error.message).toMatch(message);
    }
    expect((await translate(owner, 'abc', { language: 'en' })).status).toBe(400);
  });

  test('without a translator: 503 with the words that say how to configure one; a failing one: 502 in plain words', async () => {
    const owner = await newOwner('trnone');
    const { german } = await reviews(owner);
    w.setEnv({ ...env(), LIBRETRANSLATE_URL: undefined });
    try {
      const r = await translate(owner, german, { language: 'en' });
      expect(r.status, r.text).toBe(503);
      expect(r.json.error).toEqual({ code: 'translation_not_configured', message: TRANSLATION_NOT_CONFIGURED });
    } finally {
      w.setEnv(env());
    }
    lt.failTranslations(1);
    const failed = await translate(owner, german, { language: 'fr' });
    expect(failed.status, failed.text).toBe(502);
    expect(failed.json.error).toEqual({ code: 'translation_failed', message: 'The translation failed: LibreTranslate answered 500: Cannot translate text: worker crashed' });
    // Nothing was cached from the failure: the next request translates.
    expect((await translate(owner, german, { language: 'fr' })).json.data).toMatchObject({ body: '[fr] Die beste Notiz-App, die ich kenne.' });
  });

  test('a plan without translation is a 402 naming the plan that includes it', async () => {
    const owner = await newOwner('trfree');
    const { german } = await reviews(owner);
    const calls = lt.translateCalls().length;
    w.setEnv({ ...env(), STRIPE_SECRET_KEY: 'sk_test_translate' });
    try {
      const r = await translate(owner, german, { language: 'en' });
      expect(r.status, r.text).toBe(402);
      expect(r.json.error).toEqual({ code: 'plan_limit', message: 'Your Free plan does not include translation. Upgrade to Startup for translation of reviews and replies.' });
      expect(lt.translateCalls().length).toBe(calls);
    } finally {
      w.setEnv(env());
    }
  });
});
