/**
 * The figures behind an app's ratings-and-trends page, in one pass over the app's reviews of the chosen days: per period
 * (count, average, sentiment in four classes and the reviews not yet classified: they add up to the count), per star rating, per app version and per country, as the grouping sets of one query.
 * The only place with their SQL.
 *
 * A review counts on the day the store last dated it (updated_at, UTC): the date the inbox shows and filters by, so a
 * day's bar here and that day's inbox list agree. The inbox's (app_key, updated_at) index carries every grouped column
 * (migration 0012), so the pass reads the index alone.
 */
import { sql, type RawBuilder } from 'kysely';
import { getDb, type DB } from '../db/client';
import type { StatsInterval } from './buckets';

export type StatsGroupRow = {
  /** Which grouping the row belongs to. */
  dim: 'period' | 'rating' | 'version' | 'country';
  /** The period's first day, YYYY-MM-DD. */
  period: string | null;
  rating: number | null;
  /** '' for reviews without a version / country. */
  version: string | null;
  country: string | null;
  reviews: number;
  rating_sum: number;
  positive: number;
  neutral: number;
  negative: number;
  mixed: number;
  /** Reviews without a sentiment yet (stored before enrichment, or by a writer that leaves it null). */
  unclassified: number;
};

type StatsGroupsQuery = { appKey: string; from: Date; toExclusive: Date; interval: StatsInterval };

/** The statement (the bench EXPLAINs it). */
export function statsGroupsQuery(q: StatsGroupsQuery): RawBuilder<StatsGroupRow> {
  // date_trunc's unit as a literal: a bound parameter would make the planner see a different expression from the one
  // grouped by.
  const unit = q.interval === 'week' ? sql.lit('week') : sql.lit('day');
  return sql<StatsGroupRow>`
    select case when grouping(period) = 0 then 'period'
                when grouping(rating) = 0 then 'rating'
                when grouping(version) = 0 then 'version'
                else 'country' end as dim,
           period, rating, version, country,
           count(*)::int as reviews,
           sum(rating)::int as rating_sum,
           (count(*) filter (where sentiment = 'positive'))::int as positive,
           (count(*) filter (where sentiment = 'neutral'))::int as neutral,
           (count(*) filter (where sentiment = 'negative'))::int as negative,
           (count(*) filter (where sentiment = 'mixed'))::int as mixed,
           (count(*) filter (where sentiment is null or sentiment not in ('positive', 'neutral', 'negative', 'mixed')))::int as unclassified
      from (select to_char(date_trunc(${unit}, updated_at at time zone 'UTC'), 'YYYY-MM-DD') as period,
                   rating::int as rating,
                   coalesce(app_version, '') as version,
                   coalesce(country, '') as country,
                   sentiment
              from reviews
             where app_key = ${q.appKey} and updated_at >= ${q.from} and updated_at < ${q.toExclusive}) r
     group by grouping sets ((period), (rating), (version), (country))`;
}

export async function statsGroups(q: StatsGroupsQuery, db?: DB): Promise<StatsGroupRow[]> {
  return (await statsGroupsQuery(q).execute(db ?? (await getDb()))).rows;
}

/** The organisation's app `appKey` (title and store only: none of the figures the apps list computes), or undefined. */
export async function orgAppName(orgId: string, appKey: string, db?: DB): Promise<{ key: string; title: string; store: string } | undefined> {
  const d = db ?? (await getDb());
  return d
    .selectFrom('org_apps as oa')
    .innerJoin('apps as a', 'a.key', 'oa.app_key')
    .select(['a.key', 'a.title', 'a.store'])
    .where('oa.org_id', '=', orgId)
    .where('oa.app_key', '=', appKey)
    .executeTakeFirst();
}
