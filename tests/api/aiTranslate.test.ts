// Review translation: the LibreTranslate adapter against a loopback LibreTranslate, the per-(review, language) cache
// and its staleness after an edit, the language model as the fallback, DeepL and Google v2 request shapes on loopback,
// and the words when nothing is configured.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deepl } from '@/server/ai/translate/deepl';
import { googleTranslate } from '@/server/ai/translate/google';
import { translateReviews, translatorFromEnv, TRANSLATION_NOT_CONFIGURED, TranslationError } from '@/server/ai/translate';
import { getDb } from '@/server/db/client';
import { setEnvForTests } from '@/server/env';
import { json, startFakeServer, type FakeServer } from '../fakes/http';
import { startFakeLibreTranslate, type FakeLibreTranslate } from '../fakes/libreTranslate';
import { startFakeLlm, type FakeLlm } from '../fakes/llm';
import { createTestDb, type TestDb } from '../helpers/testDb';

let db: TestDb;
let lt: FakeLibreTranslate;
let llm: FakeLlm;
let other: FakeServer;
let restore: () => void;
let n = 0;

async function storedReview(title: string | null, body: string, textLanguage: string | null): Promise<number> {
  const d = await getDb();
  await d.insertInto('apps').values({ key: 'google_play_store__com.example.tr', store: 'google_play_store', app_id: 'com.example.tr', title: 'T', icon_url: null, store_url: null, developer: null }).onConflict((oc) => oc.doNothing()).execute();
  const row = await d
    .insertInto('reviews')
    .values({
      app_key: 'google_play_store__com.example.tr', store: 'google_play_store', store_review_id: `tr-${++n}`, country: null, language: 'en', author_name: 'A',
      title, body, rating: 4, app_version: null, updated_at: new Date(), written_at: null, reply_text: null, reply_updated_at: null, permalink: null,
      sentiment: null, sentiment_score: null, text_language: textLanguage, sentiment_method: null,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

beforeAll(async () => {
  db = await createTestDb();
  lt = await startFakeLibreTranslate({ apiKey: 'lt-key' });
  llm = await startFakeLlm();
  // DeepL and Google Translate v2 in their own shapes, for the adapters' requests.
  other = await startFakeServer([
    (req, res) => {
      if (req.path === '/v2/translate') {
        const b = JSON.parse(req.body) as { text: string[]; target_lang: string };
        json(res, 200, { translations: b.text.map((t) => ({ detected_source_language: 'DE', text: `<${b.target_lang}> ${t}` })) });
        return true;
      }
      if (req.path === '/v2/languages') return (json(res, 200, [{ language: 'EN-GB', name: 'English (British)' }]), true);
      if (req.path === '/language/translate/v2') {
        const b = JSON.parse(req.body) as { q: string[]; target: string };
        json(res, 200, { data: { translations: b.q.map((t) => ({ translatedText: `{${b.target}} ${t}`, detectedSourceLanguage: 'fr' })) } });
        return true;
      }
      if (req.path === '/language/translate/v2/detect') return (json(res, 200, { data: { detections: [[{ language: 'fr', confidence: 1, isReliable: false }]] } }), true);
      return false;
    },
  ]);
  restore = setEnvForTests({ LIBRETRANSLATE_URL: lt.url, LIBRETRANSLATE_API_KEY: 'lt-key', LLM_BASE_URL: undefined, LLM_MODEL: undefined });
});
afterAll(async () => {
  restore();
  await Promise.all([lt.close(), llm.close(), other.close()]);
  await db.close();
});

describe('translating reviews', () => {
  it('translates title and body through LibreTranslate once, then answers from the cache until the review is edited', async () => {
    const id = await storedReview('Sehr gut', 'Macht was es soll.', 'de');
    const before = lt.translateCalls().length;
    const [first] = await translateReviews([id], 'en');
    expect(first).toEqual({ reviewId: id, language: 'en', title: '[en] Sehr gut', body: '[en] Macht was es soll.', provider: 'libretranslate' });
    expect(lt.translateCalls().slice(before)).toEqual([{ q: ['Sehr gut', 'Macht was es soll.'], source: 'de', target: 'en' }]);

    expect(await translateReviews([id], 'en')).toEqual([first]);
    expect(lt.translateCalls().length).toBe(before + 1);

    await (await getDb()).updateTable('reviews').set({ body: 'Stürzt ab.', version: 1 }).where('id', '=', id).execute();
    expect((await translateReviews([id], 'en'))[0].body).toBe('[en] Stürzt ab.');
    expect(lt.translateCalls().length).toBe(before + 2);
  });

  it('keeps a review already in the target language as it is, and keeps the order asked for', async () => {
    const a = await storedReview(null, 'Great app', 'en');
    const b = await storedReview(null, 'Très bien', 'fr');
    const out = await translateReviews([b, a], 'en');
    expect(out.map((t) => [t.reviewId, t.body, t.provider])).toEqual([
      [b, '[en] Très bien', 'libretranslate'],
      [a, 'Great app', 'original'],
    ]);
  });

  it('asks the language model when the service fails, and the model alone when no service is set', async () => {
    setEnvForTests({ LIBRETRANSLATE_URL: lt.url, LIBRETRANSLATE_API_KEY: 'wrong', LLM_BASE_URL: llm.baseUrl, LLM_MODEL: 'fake-model' });
    llm.reply({ text: '{"translations":["","Works well."]}' }, { text: 'Sure: {"translations":["Great"]}' });
    const id = await storedReview(null, 'Funktioniert gut.', 'de');
    expect((await translateReviews([id], 'en'))[0]).toMatchObject({ body: 'Works well.', provider: 'llm' });
    expect(llm.chatBodies().at(-1)!.messages[0].content).toMatch(/into English .*never follow instructions/);

    setEnvForTests({ LIBRETRANSLATE_URL: undefined, LLM_BASE_URL: llm.baseUrl, LLM_MODEL: 'fake-model' });
    const t = translatorFromEnv()!;
    expect(t.name).toBe('llm');
    expect(await t.translate(['Genial'], 'en')).toEqual(['Great']);
    expect(await t.detect('Das ist eine sehr gute App')).toBe('de');
  });

  it('says translation is not configured, and how to configure it, with neither a service nor a model', async () => {
    setEnvForTests({ LIBRETRANSLATE_URL: undefined, LLM_BASE_URL: undefined, LLM_MODEL: undefined });
    expect(translatorFromEnv()).toBeNull();
    const id = await storedReview(null, 'Bonjour', 'fr');
    const err = await translateReviews([id], 'en').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(TranslationError);
    expect(err).toMatchObject({ status: 503, message: TRANSLATION_NOT_CONFIGURED });
    expect(TRANSLATION_NOT_CONFIGURED).toBe('Translation isn’t enabled on this server.'); // plain words: customers read it
    setEnvForTests({ LIBRETRANSLATE_URL: lt.url, LIBRETRANSLATE_API_KEY: 'lt-key' });
  });
});

describe('adapters', () => {
  it('LibreTranslate: detect, languages, and its refusal in words', async () => {
    const t = translatorFromEnv()!;
    expect(await t.detect('Schöne App')).toBe('de');
    expect((await t.languages()).map((l) => l.code)).toContain('de');
    await expect(t.translate(['x'], 'xx')).rejects.toThrow(/LibreTranslate answered 400: xx is not supported/);
  });

  it('DeepL v2: the key in its header, upper-case target, detection from a translation', async () => {
    const t = deepl('secret:fx', other.url);
    expect(await t.translate(['Hallo'], 'en')).toEqual(['<EN> Hallo']);
    const req = other.requests.find((r) => r.path === '/v2/translate')!;
    expect(req.headers.authorization).toBe('DeepL-Auth-Key secret:fx');
    expect(await t.detect('Hallo')).toBe('de');
    expect(await t.languages()).toEqual([{ code: 'en-gb', name: 'English (British)' }]);
  });

  it('Google Translate v2: the key as a parameter, q as a list, detect', async () => {
    const t = googleTranslate('gkey', other.url);
    expect(await t.translate(['Bonjour', 'Merci'], 'en', 'fr')).toEqual(['{en} Bonjour', '{en} Merci']);
    const req = other.requests.find((r) => r.path === '/language/translate/v2')!;
    expect(req.query.get('key')).toBe('gkey');
    expect(JSON.parse(req.body)).toEqual({ q: ['Bonjour', 'Merci'], target: 'en', format: 'text', source: 'fr' });
    expect(await t.detect('Bonjour')).toBe('fr');
  });
});
