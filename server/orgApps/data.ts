/**
 * The organisation's apps (table org_apps) with the figures the apps list shows: the only place with their SQL.
 * The figures are read from the stored reviews through the per-app indexes (0002, 0012), so a list of 20 apps with
 * a million reviews between them reads index entries, not review rows.
 */
import { sql, type Transaction } from 'kysely';
import { getDb, type DB } from '../db/client';
import type { Database } from '../db/types';
import { latestStoreRatings, type LatestStoreRating } from '../storeRatings/data';

type Db = DB | Transaction<Database>;
const dbOf = async (db?: Db) => db ?? (await getDb());

export type OrgAppRow = {
  app_key: string;
  store: string;
  app_id: string;
  title: string;
  icon_url: string | null;
  developer: string | null;
  countries: string[];
  added_by_email: string | null;
  created_at: Date;
  review_count: number;
  rating: number | null;
  reviews_this_week: number;
  last_review_at: Date | null;
  last_review_rating: number | null;
  /** The organisation's store credentials for the app: what they are and when they were checked, never the secret. */
  credentials_kind: string | null;
  credentials_label: string | null;
  credentials_checked_at: Date | null;
  /** Paused because the plan allows fewer apps (server/plans/pauses.ts). */
  plan_paused_at: Date | null;
  /** The store's own rating (server/storeRatings), over the storefronts the organisation watches; null before the first snapshot. */
  store_rating: LatestStoreRating | null;
};

/** The organisation's apps (all, or the one `appKey`), by title, each with its review figures. */
export async function listOrgApps(orgId: string, appKey?: string, db?: Db): Promise<OrgAppRow[]> {
  const d = await dbOf(db);
  const r = await sql<Omit<OrgAppRow, 'store_rating'>>`
    select oa.app_key, a.store, a.app_id, a.title, a.icon_url, a.developer, oa.countries, oa.added_by_email, oa.created_at,
           oa.credentials_kind, oa.credentials_label, oa.credentials_checked_at, oa.plan_paused_at,
           st.review_count, st.rating, wk.n as reviews_this_week, lr.updated_at as last_review_at, lr.rating as last_review_rating
      from org_apps oa
      join apps a on a.key = oa.app_key
      -- The counters the reviews' triggers keep (migration 0018): no counting of an app's reviews per call.
      cross join lateral (select coalesce(max(s.review_count), 0)::int as review_count,
                                 max(case when s.review_count > 0 then s.rating_sum::float8 / s.review_count end) as rating
                            from app_review_stats s where s.app_key = oa.app_key) st
      cross join lateral (select count(*)::int as n from reviews r where r.app_key = oa.app_key and r.updated_at >= now() - interval '7 days') wk
      left join lateral (select r.updated_at, r.rating from reviews r where r.app_key = oa.app_key order by r.updated_at desc, r.id desc limit 1) lr on true
     where oa.org_id = ${orgId} ${appKey ? sql`and oa.app_key = ${appKey}` : sql``}
     order by lower(a.title), oa.app_key`.execute(d);
  const countries = new Map(r.rows.filter((a) => a.store === 'apple_app_store').map((a) => [a.app_key, a.countries]));
  const ratings = await latestStoreRatings(d, r.rows.map((a) => a.app_key), { countries });
  return r.rows.map((a) => ({ ...a, store_rating: ratings.get(a.app_key) ?? null }));
}

/** The keys of the organisation's apps (every inbox query is scoped to them). */
export async function orgAppKeys(orgId: string, db?: Db): Promise<string[]> {
  const rows = await (await dbOf(db)).selectFrom('org_apps').select('app_key').where('org_id', '=', orgId).orderBy('app_key').execute();
  return rows.map((r) => r.app_key);
}

export async function getOrgAppCountries(orgId: string, appKey: string, db?: Db): Promise<string[] | undefined> {
  const row = await (await dbOf(db)).selectFrom('org_apps').select('countries').where('org_id', '=', orgId).where('app_key', '=', appKey).executeTakeFirst();
  return row?.countries;
}

/** Adds the app to the organisation, or sets its countries when it is there already. */
export async function upsertOrgApp(
  input: { orgId: string; appKey: string; countries: string[]; addedBy: string | null; addedByEmail: string | null },
  db?: Db,
): Promise<void> {
  await (await dbOf(db))
    .insertInto('org_apps')
    .values({ org_id: input.orgId, app_key: input.appKey, countries: input.countries, added_by: input.addedBy, added_by_email: input.addedByEmail })
    .onConflict((oc) => oc.columns(['org_id', 'app_key']).doUpdateSet({ countries: input.countries }))
    .execute();
}

/** Adds apps that are not there yet (claiming); returns the keys added. */
export async function insertMissingOrgApps(orgId: string, apps: Array<{ appKey: string; countries: string[] }>, addedByEmail: string, db?: Db): Promise<string[]> {
  if (apps.length === 0) return [];
  const rows = await (await dbOf(db))
    .insertInto('org_apps')
    .values(apps.map((a) => ({ org_id: orgId, app_key: a.appKey, countries: a.countries, added_by: null, added_by_email: addedByEmail })))
    .onConflict((oc) => oc.columns(['org_id', 'app_key']).doNothing())
    .returning('app_key')
    .execute();
  return rows.map((r) => r.app_key);
}

/** Removes the app from the organisation; false when it was not the organisation's. */
export async function deleteOrgApp(orgId: string, appKey: string, db?: Db): Promise<boolean> {
  const r = await (await dbOf(db)).deleteFrom('org_apps').where('org_id', '=', orgId).where('app_key', '=', appKey).executeTakeFirst();
  return Number(r.numDeletedRows) === 1;
}

/** The apps (and the storefronts each wants) of these connections, while they are still without an account. */
export async function appsOfAnonymousConnections(ids: string[], db?: Db): Promise<Array<{ app_key: string; store: string; filters: unknown }>> {
  if (ids.length === 0) return [];
  return (await dbOf(db))
    .selectFrom('destinations as d')
    .innerJoin('destination_apps as da', 'da.destination_id', 'd.id')
    .innerJoin('apps as a', 'a.key', 'da.app_key')
    .select(['da.app_key', 'a.store', 'd.filters'])
    .where('d.org_id', 'is', null)
    .where('d.id', 'in', ids)
    .execute();
}

export type StoredCredentials = { kind: string; sealed: string; label: string };

/** Stores the organisation's sealed credentials for its app, checked now; false when the app is not the organisation's. */
export async function saveOrgAppCredentials(orgId: string, appKey: string, c: StoredCredentials, db?: Db): Promise<boolean> {
  const r = await (await dbOf(db))
    .updateTable('org_apps')
    .set({ credentials_kind: c.kind, credentials_enc: c.sealed, credentials_label: c.label, credentials_checked_at: sql<Date>`now()` })
    .where('org_id', '=', orgId)
    .where('app_key', '=', appKey)
    .executeTakeFirst();
  return Number(r.numUpdatedRows) === 1;
}

/** Forgets the organisation's credentials for its app; false when there were none. */
export async function clearOrgAppCredentials(orgId: string, appKey: string, db?: Db): Promise<boolean> {
  const r = await (await dbOf(db))
    .updateTable('org_apps')
    .set({ credentials_kind: null, credentials_enc: null, credentials_label: null, credentials_checked_at: null })
    .where('org_id', '=', orgId)
    .where('app_key', '=', appKey)
    .where('credentials_enc', 'is not', null)
    .executeTakeFirst();
  return Number(r.numUpdatedRows) === 1;
}

/** The most recently checked credentials any organisation stored for this app (sealed), or undefined. */
export async function newestAppCredentials(appKey: string, db?: Db): Promise<string | undefined> {
  const row = await (await dbOf(db))
    .selectFrom('org_apps')
    .select('credentials_enc')
    .where('app_key', '=', appKey)
    .where('credentials_enc', 'is not', null)
    .orderBy('credentials_checked_at', 'desc')
    .limit(1)
    .executeTakeFirst();
  return row?.credentials_enc ?? undefined;
}
