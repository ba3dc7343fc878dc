// Re-reading the sentiment of stored reviews with today's rule (server/ai/enrich/reclassify.ts, run by
// scripts/reclassify-sentiment.ts after an upgrade) on a real database: a 1★ complaint the old rule stored as mixed
// becomes negative, a review without a class gets one, the language model's classes stay, and a second run writes nothing.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { reclassifyStoredSentiments } from '@/server/ai/enrich/reclassify';
import { getDb } from '@/server/db/client';
import { createTestDb, type TestDb } from '../helpers/testDb';

let db: TestDb;
beforeAll(async () => {
  db = await createTestDb();
});
afterAll(() => db.close());

type Seed = { id: string; title?: string; body: string; rating: number; sentiment: string | null; method: string | null };

async function seed(reviews: Seed[]) {
  const d = await getDb();
  const key = 'apple_app_store__1700000001';
  await d.insertInto('apps').values({ key, store: 'apple_app_store', app_id: '1700000001', title: 'Reclassify', icon_url: null, store_url: null, developer: null }).execute();
  for (const r of reviews) {
    await d
      .insertInto('reviews')
      .values({
        app_key: key, store: 'apple_app_store', store_review_id: r.id, country: 'us', language: 'en', author_name: 'A', title: r.title ?? null,
        body: r.body, rating: r.rating, app_version: '1.0', updated_at: new Date(), reply_text: null, sentiment: r.sentiment,
        sentiment_score: r.sentiment ? 0.1 : null, sentiment_method: r.method, written_at: null, reply_updated_at: null, permalink: null,
      })
      .execute();
  }
}

const classOf = async (id: string) =>
  (await getDb()).selectFrom('reviews').select(['sentiment', 'sentiment_method']).where('store_review_id', '=', id).executeTakeFirstOrThrow();

describe('reclassifying stored sentiment', () => {
  it('re-reads what the lexicon or the stars gave, never what the model gave, and only writes what changes', async () => {
    await seed([
      { id: 'old-mixed', title: 'Crashes on open', body: 'Crashes on open every single time. Cannot use it at all.', rating: 1, sentiment: 'mixed', method: 'lexicon' },
      { id: 'never-classified', body: 'Waste of money, keeps freezing.', rating: 2, sentiment: null, method: null },
      { id: 'model', body: 'Crashes on open every single time.', rating: 1, sentiment: 'mixed', method: 'llm' },
      { id: 'genuine-mixed', body: 'Love the design but it crashes when I upload photos.', rating: 4, sentiment: 'mixed', method: 'lexicon' },
    ]);
    const first = await reclassifyStoredSentiments({ batch: 2 });
    expect(first).toEqual({ read: 3, changed: 3 });
    expect(await classOf('old-mixed')).toEqual({ sentiment: 'negative', sentiment_method: 'lexicon' });
    expect(await classOf('never-classified')).toEqual({ sentiment: 'negative', sentiment_method: 'lexicon' });
    expect(await classOf('model')).toEqual({ sentiment: 'mixed', sentiment_method: 'llm' });
    expect(await classOf('genuine-mixed')).toEqual({ sentiment: 'mixed', sentiment_method: 'lexicon' });
    expect(await reclassifyStoredSentiments()).toEqual({ read: 3, changed: 0 });
  });
});
