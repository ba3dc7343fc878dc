/**
 * Re-reads the sentiment of reviews already stored, with the rule of today: after a change of the rule (sentiment.ts,
 * cues.ts) the reviews stored before it keep their old class until they are edited, so a dashboard would count them
 * by the old rule. Run once after an upgrade that changes the rule: `npx tsx scripts/reclassify-sentiment.ts`.
 *
 * Every review whose class did not come from the language model (method `lexicon`, `rating` or none) is classified
 * again from its title, text and stars, in batches by id; only the ones whose class, score or method changes are
 * written. The model's classes (`llm`) are left as they are. Safe to run while the server runs: a review edited
 * meanwhile was classified by its writer with the same rule.
 */
import { sql } from 'kysely';
import { getDb, type DB } from '../../db/client';
import { enrichReview, prepareEnrichment } from './index';

export async function reclassifyStoredSentiments(options: { batch?: number; db?: DB } = {}): Promise<{ read: number; changed: number }> {
  await prepareEnrichment();
  const db = options.db ?? (await getDb());
  const batch = options.batch ?? 2_000;
  let after = 0;
  let read = 0;
  let changed = 0;
  for (;;) {
    const rows = await db
      .selectFrom('reviews')
      .select(['id', 'title', 'body', 'rating', 'sentiment', 'sentiment_score', 'sentiment_method'])
      .where('id', '>', after)
      .where((eb) => eb.or([eb('sentiment_method', 'is', null), eb('sentiment_method', '!=', 'llm')]))
      .orderBy('id')
      .limit(batch)
      .execute();
    if (!rows.length) break;
    after = Number(rows[rows.length - 1].id);
    read += rows.length;
    const updates = rows
      .map((r) => ({ id: Number(r.id), before: r, e: enrichReview({ title: r.title, body: r.body, rating: r.rating }) }))
      // The score is stored as a real (float4): compared to three decimals, as enrichReview rounds it.
      .filter(({ before, e }) => before.sentiment !== e.sentiment || before.sentiment_method !== e.sentiment_method || before.sentiment_score === null || Math.abs(before.sentiment_score - e.sentiment_score) > 5e-4);
    if (updates.length) {
      await sql`
        update reviews r set sentiment = v.sentiment, sentiment_score = v.score, sentiment_method = v.method
          from unnest(${updates.map((u) => u.id)}::bigint[], ${updates.map((u) => u.e.sentiment)}::text[],
                      ${updates.map((u) => u.e.sentiment_score)}::real[], ${updates.map((u) => u.e.sentiment_method)}::text[]) as v(id, sentiment, score, method)
         where r.id = v.id and r.sentiment_method is distinct from 'llm'`.execute(db);
      changed += updates.length;
    }
  }
  return { read, changed };
}
