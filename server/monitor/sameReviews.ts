/**
 * One review, two ids. An app switches between its public sources and its official API when an organisation stores
 * or removes store credentials (sourceDemand.ts), and the two name the same review differently: the App Store feed's
 * ids are numbers, App Store Connect's are its own resource ids; public Google Play and the Play Developer API need not
 * agree either. Reviews are unique per (store, store review id), so without this the review read before the switch
 * would be stored — and announced — a second time under the other id.
 *
 * During a switch (another kind of source read the app in the last week), a review the poll brings under an unknown
 * id is first looked for among the app's stored reviews by what the stores do agree on: author, rating, body, and
 * title and country where both sides have one (one review per person per app and storefront, so these name it). A
 * match is the same review: its row takes the new id (so the next polls find it by id, and replies go through the
 * source that reads it now) and it is neither inserted nor announced again. Outside a switch nothing is looked up.
 */
import { sql, type Transaction } from 'kysely';
import type { Database } from '../db/types';
import type { NormalizedReview } from '../sources/types';

/**
 * SQL, in the ingest's first statement (source `s`): another kind of source read this app in the last week, so reviews
 * may arrive under the other kind's ids. Outside such a switch nothing is looked up.
 */
export const SWITCHING_SQL = sql<boolean>`exists (
  select 1 from monitored_sources o
   where o.app_key = s.app_key and o.kind <> s.kind and o.last_success_at > now() - interval '7 days')`;
/** A review's date may differ between the two sources (creation vs last edit): candidates are looked for this far back. */
const DATE_SLACK_MS = 7 * 24 * 3600_000;

export type StoredReviewRow = {
  id: number;
  store_review_id: string;
  rating: number;
  title: string | null;
  body: string;
  updated_at: Date;
  version: number;
  reply_text: string | null;
};

type Candidate = Omit<StoredReviewRow, 'id'> & { id: string; author_name: string; country: string | null };

const norm = (s: string | null | undefined) => (s ?? '').trim();

function sameReview(r: NormalizedReview, c: Candidate): boolean {
  return (
    norm(r.authorName) === norm(c.author_name) &&
    Math.round(r.rating) === c.rating &&
    norm(r.body) === norm(c.body) &&
    (r.title == null || c.title == null || norm(r.title) === norm(c.title)) &&
    (r.country == null || c.country == null || r.country === c.country)
  );
}

/**
 * During a switch (SWITCHING_SQL): of `fresh` (reviews of this poll under ids not stored yet), those stored already
 * under another source's id are given their new id and added to `existing`; returns the ones that are really new.
 */
export async function adoptSameReviews(
  trx: Transaction<Database>,
  source: { app_key: string },
  fresh: NormalizedReview[],
  incomingIds: string[],
  existing: Map<string, StoredReviewRow>,
): Promise<NormalizedReview[]> {
  if (fresh.length === 0) return fresh;
  const from = new Date(Math.min(...fresh.map((r) => r.updatedAt.getTime())) - DATE_SLACK_MS);
  const authors = [...new Set(fresh.map((r) => r.authorName))];
  const { rows } = await sql<Candidate>`
    select id::text as id, store_review_id, rating, title, body, updated_at, version, reply_text, author_name, country
      from reviews
     where app_key = ${source.app_key} and updated_at >= ${from}
       and author_name = any(${authors}::text[]) and not (store_review_id = any(${incomingIds}::text[]))`.execute(trx);
  if (rows.length === 0) return fresh;

  const left: NormalizedReview[] = [];
  const taken = new Set<string>();
  for (const r of fresh) {
    const c = rows.find((x) => !taken.has(x.id) && sameReview(r, x));
    if (!c) {
      left.push(r);
      continue;
    }
    taken.add(c.id);
    await sql`
      update reviews
         set store_review_id = ${r.storeReviewId}, title = coalesce(title, ${r.title}), country = coalesce(country, ${r.country}),
             language = coalesce(language, ${r.language})
       where id = ${c.id}::bigint`.execute(trx);
    existing.set(r.storeReviewId, {
      id: Number(c.id),
      store_review_id: r.storeReviewId,
      rating: c.rating,
      title: c.title ?? r.title,
      body: c.body,
      updated_at: c.updated_at,
      version: c.version,
      reply_text: c.reply_text,
    });
  }
  return left;
}
