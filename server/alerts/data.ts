/**
 * The spike check's SQL: which apps to check, their daily counts, episodes, cited reviews, and the alert deliveries.
 * An episode opens with ON CONFLICT DO NOTHING on its one-open-per-scope index, and its deliveries are queued in the
 * same transaction only if this call inserted it: two checks racing open one episode and queue one alert each.
 */
import { sql, type RawBuilder, type Transaction } from 'kysely';
import type { DB } from '../db/client';
import type { Database } from '../db/types';
import type { Scope } from './detector';
import type { AlertDetails, CitedReview } from './details';
import type { CountRow } from './series';

type Db = DB | Transaction<Database>;
const DAY_MS = 86_400_000;

/** Apps with an active destination that wants alerts, and apps with an episode still open (so it can close). */
export async function appsToCheck(db: Db): Promise<string[]> {
  const r = await sql<{ app_key: string }>`
    select da.app_key from destination_apps da join destinations d on d.id = da.destination_id
     where d.spike_alerts and d.status = 'active'
    union
    select app_key from spike_episodes where closed_at is null
    order by 1`.execute(db);
  return r.rows.map((x) => x.app_key);
}

/**
 * Reviews per 24-hour slice before `now` (0 = the last 24 hours), country and version, counted at their last change
 * (a review edited from 5★ to 1★ today counts today, as 1★).
 */
export async function dailyCounts(db: Db, appKey: string, now: Date, days: number): Promise<CountRow[]> {
  const r = await sql<CountRow>`
    select floor(extract(epoch from (${now}::timestamptz - updated_at)) / 86400)::int as day,
           coalesce(country, '') as country, coalesce(app_version, '') as version,
           count(*)::int as n, (count(*) filter (where rating <= 2))::int as low,
           sum(rating)::int as sum, sum(rating * rating)::int as "sumSq"
      from reviews
     where app_key = ${appKey} and updated_at > ${new Date(now.getTime() - days * DAY_MS)}::timestamptz and updated_at <= ${now}::timestamptz
     group by 1, 2, 3`.execute(db);
  return r.rows;
}

export type EpisodeRow = { id: number; scope_kind: Scope['kind']; scope_value: string };

export async function openEpisodesOf(db: Db, appKey: string): Promise<EpisodeRow[]> {
  return db.selectFrom('spike_episodes').select(['id', 'scope_kind', 'scope_value']).where('app_key', '=', appKey).where('closed_at', 'is', null).execute();
}

/** Scopes whose episode ended after `after`: they stay quiet for a while (detector.ts decide). */
export async function recentlyClosedOf(db: Db, appKey: string, after: Date): Promise<EpisodeRow[]> {
  return db.selectFrom('spike_episodes').select(['id', 'scope_kind', 'scope_value']).where('app_key', '=', appKey).where('closed_at', '>', after).execute();
}

export async function closeEpisodes(db: Db, ids: number[], now: Date): Promise<void> {
  if (ids.length) await db.updateTable('spike_episodes').set({ closed_at: now }).where('id', 'in', ids).where('closed_at', 'is', null).execute();
}

/**
 * The scope's low reviews of the window (rated `maxRating` or less): when the first came (`since`) and the few an alert
 * cites — the lowest rated, those with the most to say (longest text) first, then the most recent.
 */
export async function windowLowReviews(
  db: Db,
  appKey: string,
  scope: Scope,
  window: { from: Date; to: Date; maxRating: number },
  limit: number,
): Promise<{ since: Date | null; cited: CitedReview[] }> {
  const inScope = scope.kind === 'country' ? sql`and country = ${scope.value}` : scope.kind === 'version' ? sql`and app_version = ${scope.value}` : sql``;
  const where = sql`app_key = ${appKey} and rating <= ${window.maxRating} and updated_at > ${window.from}::timestamptz and updated_at <= ${window.to}::timestamptz ${inScope}`;
  return sinceAndCited(db, where, limit);
}

/** The reviews matching `where`: when the first came, and the few an alert cites (lowest stars, longest text first). */
async function sinceAndCited(db: Db, where: RawBuilder<unknown>, limit: number): Promise<{ since: Date | null; cited: CitedReview[] }> {
  const first = await sql<{ since: Date | null }>`select min(updated_at) as since from reviews where ${where}`.execute(db);
  const cited = await sql<CitedReview>`
    select id::int as id, rating::int as rating, title, body, author_name as author, country, app_version as version
      from reviews where ${where}
     order by rating, length(body) desc, updated_at desc, id desc
     limit ${limit}`.execute(db);
  const since = first.rows[0]?.since;
  return { since: since ? new Date(since) : null, cited: cited.rows };
}

/**
 * A topic's reviews (`ids`, the window's reviews using its term): when the first came and the few an alert cites, in
 * the order windowLowReviews cites them.
 */
export async function topicReviews(db: Db, ids: string[], limit: number): Promise<{ since: Date | null; cited: CitedReview[] }> {
  if (!ids.length) return { since: null, cited: [] };
  const where = sql`id in (${sql.join(ids.map((id) => sql`${id}::bigint`))})`;
  return sinceAndCited(db, where, limit);
}

/** Opens an episode unless one is open for the scope; its id only if this call opened it. */
export async function insertEpisode(trx: Transaction<Database>, appKey: string, scope: Scope, since: Date, details: AlertDetails, now: Date): Promise<number | null> {
  const r = await sql<{ id: number }>`
    insert into spike_episodes (app_key, scope_kind, scope_value, opened_at, since, details)
    values (${appKey}, ${scope.kind}, ${scope.value}, ${now}::timestamptz, ${since}::timestamptz, ${JSON.stringify(details)}::jsonb)
    on conflict do nothing
    returning id::int as id`.execute(trx);
  return r.rows[0]?.id ?? null;
}

/** The app's active destinations that opted in to alerts, with their filters. */
export async function alertDestinationsOf(trx: Transaction<Database>, appKey: string): Promise<Array<{ id: string; filters: unknown }>> {
  return trx
    .selectFrom('destinations as d')
    .innerJoin('destination_apps as da', 'da.destination_id', 'd.id')
    .select(['d.id', 'd.filters'])
    .where('da.app_key', '=', appKey)
    .where('d.spike_alerts', '=', true)
    .where('d.status', '=', 'active')
    .orderBy('d.id')
    .execute();
}

/** One alert delivery per destination and episode (deliveries_one_alert_idx): a repeat is a no-op. */
export async function queueAlertDeliveries(trx: Transaction<Database>, episodeId: number, appKey: string, destinationIds: string[]): Promise<number> {
  if (!destinationIds.length) return 0;
  const r = await trx
    .insertInto('deliveries')
    .values(destinationIds.map((id) => ({ destination_id: id, app_key: appKey, review_id: null, kind: 'alert' as const, alert_episode_id: episodeId })))
    .onConflict((oc) => oc.doNothing())
    .executeTakeFirst();
  return Number(r.numInsertedOrUpdatedRows ?? 0);
}
