/**
 * SQL of the AI features: language-model tokens per organisation and month (a column of org_usage_months, the table
 * every monthly allowance is counted in), and the queue of reviews whose sentiment the model re-reads.
 */
import { sql, type Transaction } from 'kysely';
import { getDb, type DB } from '../db/client';
import type { Database } from '../db/types';

const dbOf = async (db?: DB) => db ?? (await getDb());

export async function llmTokensUsed(orgId: string, month: string, db?: DB): Promise<number> {
  const row = await (await dbOf(db))
    .selectFrom('org_usage_months')
    .select('llm_tokens')
    .where('org_id', '=', orgId)
    .where('month', '=', month)
    .executeTakeFirst();
  return Number(row?.llm_tokens ?? 0);
}

/** Adds `tokens` to the organisation's month; the month's total after it. */
export async function addLlmTokens(orgId: string, month: string, tokens: number, db?: DB): Promise<number> {
  const row = await (await dbOf(db))
    .insertInto('org_usage_months')
    .values({ org_id: orgId, month, llm_tokens: tokens })
    .onConflict((oc) => oc.columns(['org_id', 'month']).doUpdateSet({ llm_tokens: sql`org_usage_months.llm_tokens + ${tokens}`, updated_at: sql`now()` }))
    .returning('llm_tokens')
    .executeTakeFirstOrThrow();
  return Number(row.llm_tokens);
}

/** Queues reviews for the language model to re-read their sentiment (a review already waiting stays once). */
export async function insertSentimentQueue(db: DB | Transaction<Database>, reviewIds: number[]): Promise<void> {
  await sql`insert into review_sentiment_queue (review_id) select * from unnest(${reviewIds}::bigint[]) on conflict do nothing`.execute(db);
}

export type QueuedReview = { review_id: number; title: string | null; body: string; rating: number; text_language: string | null; attempts: number };

/** The oldest `limit` queued reviews with their text, each counted as one more attempt. */
export async function takeSentimentQueue(limit: number, db?: DB): Promise<QueuedReview[]> {
  const r = await sql<QueuedReview>`
    with taken as (
      update review_sentiment_queue set attempts = attempts + 1
       where review_id in (select review_id from review_sentiment_queue order by queued_at, review_id limit ${limit})
       returning review_id, attempts)
    select t.review_id, r.title, r.body, r.rating, r.text_language, t.attempts
      from taken t join reviews r on r.id = t.review_id
     order by t.review_id`.execute(await dbOf(db));
  return r.rows;
}

/** Stores the model's classes (method 'llm') and takes those reviews off the queue. */
export async function storeRefinedSentiments(results: Array<{ reviewId: number; sentiment: string }>, db?: DB): Promise<void> {
  if (!results.length) return;
  const ids = results.map((x) => x.reviewId);
  await sql`
    with refined as (
      update reviews r set sentiment = v.sentiment, sentiment_method = 'llm'
        from unnest(${ids}::bigint[], ${results.map((x) => x.sentiment)}::text[]) as v(id, sentiment)
       where r.id = v.id
       returning r.id)
    delete from review_sentiment_queue where review_id = any(${ids}::bigint[])`.execute(await dbOf(db));
}

/** Takes reviews off the queue without a new class (given up on after too many attempts). */
export async function dropFromSentimentQueue(reviewIds: number[], db?: DB): Promise<void> {
  if (!reviewIds.length) return;
  await sql`delete from review_sentiment_queue where review_id = any(${reviewIds}::bigint[])`.execute(await dbOf(db));
}

export type ReviewText = { id: number; version: number; title: string | null; body: string; text_language: string | null };
export type StoredTranslation = { review_id: number; title: string | null; body: string; provider: string };

/** The reviews' current text, and their translations to `language` made from that same version. */
export async function reviewTextsAndTranslations(ids: number[], language: string, db?: DB) {
  const d = await dbOf(db);
  const reviews = await d.selectFrom('reviews').select(['id', 'version', 'title', 'body', 'text_language']).where('id', 'in', ids).execute();
  const cached = await d
    .selectFrom('review_translations as t')
    .innerJoin('reviews as r', (j) => j.onRef('r.id', '=', 't.review_id').onRef('r.version', '=', 't.review_version'))
    .select(['t.review_id', 't.title', 't.body', 't.provider'])
    .where('t.review_id', 'in', ids)
    .where('t.language', '=', language)
    .execute();
  return { reviews: reviews as ReviewText[], cached: cached as StoredTranslation[] };
}

export async function storeTranslations(
  rows: Array<{ review_id: number; language: string; review_version: number; title: string | null; body: string; provider: string }>,
  db?: DB,
): Promise<void> {
  if (!rows.length) return;
  await (await dbOf(db))
    .insertInto('review_translations')
    .values(rows)
    .onConflict((oc) =>
      oc.columns(['review_id', 'language']).doUpdateSet((eb) => ({
        review_version: eb.ref('excluded.review_version'),
        title: eb.ref('excluded.title'),
        body: eb.ref('excluded.body'),
        provider: eb.ref('excluded.provider'),
        created_at: sql`now()`,
      })),
    )
    .execute();
}

/** A review of one of the organisation's apps, with what a translation or a reply draft needs. */
export type OrgReview = {
  id: number;
  app_key: string;
  store: string;
  app_title: string;
  author_name: string;
  title: string | null;
  body: string;
  rating: number;
  language: string | null;
  text_language: string | null;
  reply_tone: string;
};

/** The review `reviewId` when it belongs to one of `orgId`'s apps; undefined otherwise. */
export async function orgReview(orgId: string, reviewId: string, db?: DB): Promise<OrgReview | undefined> {
  const r = await sql<OrgReview>`
    select r.id, r.app_key, a.store, a.title as app_title, r.author_name, r.title, r.body, r.rating, r.language, r.text_language, oa.reply_tone
      from reviews r
      join org_apps oa on oa.app_key = r.app_key and oa.org_id = ${orgId}
      join apps a on a.key = r.app_key
     where r.id = ${reviewId}::bigint`.execute(await dbOf(db));
  return r.rows[0];
}

/** Keeps `tone` as the tone of replies drafted for the organisation's app. */
export async function setReplyTone(orgId: string, appKey: string, tone: string, db?: DB): Promise<void> {
  await (await dbOf(db)).updateTable('org_apps').set({ reply_tone: tone }).where('org_id', '=', orgId).where('app_key', '=', appKey).execute();
}
