/**
 * The reads behind an app's words and summaries: a period's reviews, newest first, with what the term counter and the
 * quotes need. The only place with their SQL. A review belongs to the day the store last dated it (updated_at), as on
 * the stats page and in the inbox, so a term's count and its inbox search cover the same reviews.
 */
import { sql } from 'kysely';
import { getDb, type DB } from '../db/client';

export type PeriodReview = {
  id: string;
  title: string | null;
  body: string;
  rating: number;
  /** The text's language when detected, else the store's. */
  language: string | null;
  sentiment: string | null;
  app_version: string | null;
  updated_at: Date;
};

/** Up to `limit` reviews of `appKey` dated in [from, toExclusive), newest first (the (app_key, updated_at) index). */
export async function periodReviews(q: { appKey: string; from: Date; toExclusive: Date; limit: number }, db?: DB): Promise<PeriodReview[]> {
  const r = await sql<PeriodReview>`
    select id::text as id, title, body, rating, coalesce(text_language, nullif(language, '')) as language, sentiment, app_version, updated_at
      from reviews
     where app_key = ${q.appKey} and updated_at >= ${q.from} and updated_at < ${q.toExclusive}
     order by updated_at desc, id desc
     limit ${q.limit}`.execute(db ?? (await getDb()));
  return r.rows;
}
