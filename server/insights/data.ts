/**
 * The reads behind an app's words and summaries: a period's reviews, newest first, with what the term counter and the
 * quotes need. The only place with their SQL. A review belongs to the day the store last dated it (updated_at), as on
 * the stats page and in the inbox, so a term's count and its inbox search cover the same reviews.
 */
import { sql } from 'kysely';
import { getDb, type DB } from '../db/client';
import { leaseTakenAtRanOut } from '../db/lease';

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

/** The app's title ('' when the app is unknown): its words are no term of its own reviews. */
export async function appTitleOf(appKey: string, db?: DB): Promise<string> {
  const r = await (db ?? (await getDb())).selectFrom('apps').select('title').where('key', '=', appKey).executeTakeFirst();
  return r?.title ?? '';
}

export type SummaryRow = {
  id: string;
  org_id: string;
  app_key: string;
  from_day: string;
  to_day: string;
  method: 'extractive' | 'llm';
  status: 'pending' | 'ready' | 'failed';
  text: string;
  content: unknown;
  citations: string[];
  note: string | null;
  created_at: Date;
  completed_at: Date | null;
};

export type NewSummary = Pick<SummaryRow, 'id' | 'org_id' | 'app_key' | 'from_day' | 'to_day' | 'method' | 'status' | 'text' | 'content' | 'citations' | 'note'> & {
  requested_by: string | null;
};

export async function insertSummary(s: NewSummary, db?: DB): Promise<void> {
  const done = s.status !== 'pending';
  await sql`insert into review_summaries (id, org_id, app_key, from_day, to_day, method, status, text, content, citations, note, requested_by, completed_at)
            values (${s.id}, ${s.org_id}, ${s.app_key}, ${s.from_day}::date, ${s.to_day}::date, ${s.method}, ${s.status}, ${s.text},
                    ${JSON.stringify(s.content)}::jsonb, ${s.citations}::text[], ${s.note}, ${s.requested_by}, ${done ? sql`now()` : null})`.execute(db ?? (await getDb()));
}

const SUMMARY_COLUMNS = sql`id, org_id, app_key, to_char(from_day, 'YYYY-MM-DD') as from_day, to_char(to_day, 'YYYY-MM-DD') as to_day,
  method, status, text, content, citations, note, created_at, completed_at`;

/** Summary `id` of the organisation's app `appKey`, or undefined (another organisation's is never found). */
export async function summaryOf(orgId: string, appKey: string, id: string, db?: DB): Promise<SummaryRow | undefined> {
  const r = await sql<SummaryRow>`select ${SUMMARY_COLUMNS} from review_summaries
                                   where id = ${id} and org_id = ${orgId} and app_key = ${appKey}`.execute(db ?? (await getDb()));
  return r.rows[0];
}

/** How long a claim on a pending summary holds before another process may take it over. */
export const SUMMARY_CLAIM_SECONDS = 180;

/** Claims pending summary `id` for this process; the row, or undefined when it is done or another process holds it. */
export async function claimSummary(id: string, db?: DB): Promise<SummaryRow | undefined> {
  const r = await sql<SummaryRow>`
    update review_summaries set claimed_at = now()
     where id = ${id} and status = 'pending' and ${leaseTakenAtRanOut('claimed_at', SUMMARY_CLAIM_SECONDS * 1000)}
    returning ${SUMMARY_COLUMNS}`.execute(db ?? (await getDb()));
  return r.rows[0];
}

/** Pending summaries nobody holds (their process stopped), oldest first. */
export async function abandonedSummaries(limit: number, db?: DB): Promise<string[]> {
  const r = await sql<{ id: string }>`
    select id from review_summaries
     where status = 'pending' and ${leaseTakenAtRanOut('claimed_at', SUMMARY_CLAIM_SECONDS * 1000)}
       and created_at < now() - interval '30 seconds'
     order by created_at limit ${limit}`.execute(db ?? (await getDb()));
  return r.rows.map((x) => x.id);
}

export async function completeSummary(
  id: string,
  s: Pick<SummaryRow, 'method' | 'status' | 'text' | 'content' | 'citations' | 'note'>,
  db?: DB,
): Promise<void> {
  await sql`update review_summaries
               set method = ${s.method}, status = ${s.status}, text = ${s.text}, content = ${JSON.stringify(s.content)}::jsonb,
                   citations = ${s.citations}::text[], note = ${s.note}, completed_at = now()
             where id = ${id} and status = 'pending'`.execute(db ?? (await getDb()));
}
