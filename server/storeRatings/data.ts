/**
 * The stores' own ratings of the apps (table store_rating_snapshots, migration 0036): the only place with their SQL.
 * How storefronts combine and what a missing day means: ./aggregate.ts.
 */
import { sql, type Transaction } from 'kysely';
import { getDb, type DB } from '../db/client';
import type { Database } from '../db/types';
import { addDays, combineStorefronts, ratingChange, seriesOf, type SeriesPoint, type SnapshotRow, type StorefrontFigure } from './aggregate';

type Db = DB | Transaction<Database>;
const dbOf = async (db?: Db) => db ?? (await getDb());

/** Google Play's 1–5 histogram: {"1": n, …, "5": n}. */
export type RatingHistogram = Record<'1' | '2' | '3' | '4' | '5', number>;

export type StoreRatingSnapshot = {
  appKey: string;
  country: string;
  /** UTC day, 'YYYY-MM-DD'. */
  day: string;
  rating: number | null;
  ratingsCount: number | null;
  histogram: RatingHistogram | null;
};

/** An app's store rating now, as the overview and the apps list show it. */
export type LatestStoreRating = {
  /** Weighted by ratings count across the storefronts (./aggregate.ts); null when the store shows none. */
  rating: number | null;
  ratings_count: number | null;
  /** When the newest of the snapshots it combines was fetched (ISO 8601). */
  as_of: string;
  /** The rating now minus the rating 7 days before (over the storefronts rated on both days); null without history. */
  change_7d: number | null;
  /** The storefronts it combines, by country code. */
  countries: StorefrontFigure[];
};

/** Storefronts whose latest snapshot is older than this many days before the app's newest one no longer count. */
const CURRENT_DAYS = 7;

/** Writes the day's snapshot of an app in one storefront (a second one on the same day replaces it). */
export async function saveSnapshot(s: StoreRatingSnapshot, db?: Db): Promise<void> {
  await sql`
    insert into store_rating_snapshots (app_key, country, day, rating, ratings_count, histogram, fetched_at)
    values (${s.appKey}, ${s.country}, ${s.day}::date, ${s.rating}, ${s.ratingsCount},
            ${s.histogram ? JSON.stringify(s.histogram) : null}::jsonb, now())
    on conflict (app_key, country, day) do update
       set rating = excluded.rating, ratings_count = excluded.ratings_count, histogram = excluded.histogram,
           fetched_at = excluded.fetched_at`.execute(await dbOf(db));
}

type Row = SnapshotRow & { app_key: string; fetched_at: Date };

/**
 * The store rating of each of these apps now (apps without snapshots are missing from the map): each storefront's
 * latest snapshot within CURRENT_DAYS of the app's newest day, combined; and its change over 7 days. Two index reads
 * per app (its newest day, then two weeks of rows), whatever the length of its history. `countries` limits an app
 * to the storefronts an organisation watches (App Store apps: org_apps.countries); an app not in it, or with an empty
 * list, keeps all its storefronts.
 */
export async function latestStoreRatings(
  db: Db | undefined,
  appKeys: readonly string[],
  options: { countries?: ReadonlyMap<string, readonly string[]> } = {},
): Promise<Map<string, LatestStoreRating>> {
  const out = new Map<string, LatestStoreRating>();
  const keys = [...new Set(appKeys)];
  if (keys.length === 0) return out;
  const r = await sql<Row>`
    select s.app_key, s.country, to_char(s.day, 'YYYY-MM-DD') as day, s.rating, s.ratings_count::float8 as ratings_count, s.fetched_at
      from unnest(${keys}::text[]) as k(app_key)
      cross join lateral (select max(x.day) as last from store_rating_snapshots x where x.app_key = k.app_key) m
      join store_rating_snapshots s on s.app_key = k.app_key and s.day between m.last - ${2 * CURRENT_DAYS}::int and m.last`.execute(await dbOf(db));
  const perApp = new Map<string, Row[]>();
  for (const row of r.rows) {
    const only = options.countries?.get(row.app_key);
    if (only && only.length > 0 && !only.includes(row.country)) continue;
    const list = perApp.get(row.app_key);
    if (list) list.push(row);
    else perApp.set(row.app_key, [row]);
  }
  for (const [key, rows] of perApp) out.set(key, latestOf(rows));
  return out;
}

function latestOf(rows: Row[]): LatestStoreRating {
  const newest = rows.reduce((m, r) => (r.day > m ? r.day : m), rows[0].day);
  const now = latestPerCountry(rows, addDays(newest, -(CURRENT_DAYS - 1)), newest);
  const then = latestPerCountry(rows, addDays(newest, -2 * CURRENT_DAYS), addDays(newest, -CURRENT_DAYS));
  const asOf = now.reduce((m, r) => (r.fetched_at > m ? r.fetched_at : m), now[0].fetched_at);
  const countries = now.map(figure).sort((a, b) => a.country.localeCompare(b.country));
  return { ...combineStorefronts(countries), as_of: new Date(asOf).toISOString(), change_7d: ratingChange(then.map(figure), countries), countries };
}

/** Each country's latest row with a day in [from, to]. */
function latestPerCountry(rows: Row[], from: string, to: string): Row[] {
  const best = new Map<string, Row>();
  for (const r of rows) {
    if (r.day < from || r.day > to) continue;
    const b = best.get(r.country);
    if (!b || r.day > b.day) best.set(r.country, r);
  }
  return [...best.values()];
}

const figure = (r: StorefrontFigure): StorefrontFigure => ({ country: r.country, rating: r.rating, ratings_count: r.ratings_count });

/**
 * An app's history from `from` to `to` (UTC days, both included): one point per day with snapshots (aggregate.ts),
 * over `countries` when given (the organisation's storefronts). Reads the day before `from` too, for its growth.
 */
export async function storeRatingSeries(
  q: { appKey: string; from: string; to: string; countries?: readonly string[] },
  db?: Db,
): Promise<SeriesPoint[]> {
  const only = q.countries && q.countries.length > 0 ? sql`and country = any(${[...q.countries]}::text[])` : sql``;
  const r = await sql<SnapshotRow>`
    select country, to_char(day, 'YYYY-MM-DD') as day, rating, ratings_count::float8 as ratings_count
      from store_rating_snapshots
     where app_key = ${q.appKey} and day between ${q.from}::date - 1 and ${q.to}::date ${only}
     order by day, country`.execute(await dbOf(db));
  return seriesOf(
    r.rows.filter((x) => x.day >= q.from),
    r.rows.filter((x) => x.day < q.from),
  );
}
