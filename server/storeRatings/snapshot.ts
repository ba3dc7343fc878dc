/**
 * The daily snapshot of the stores' own ratings (README.md in this folder): every watched app, each storefront once
 * per UTC day. Run hourly by storeRatingsJob (./jobs.ts) and taken by one worker process at a time (the job's claim in
 * job_runs, server/jobRuns.ts, a lease of server/db/lease.ts); each run fetches only what today still lacks, so an app
 * whose store failed is tried again the next hour, and a run that stopped halfway is finished by the next one.
 * Polite to the stores: App Store apps are looked up ITUNES_LOOKUP_IDS at a time per storefront, Google Play pages
 * one by one through the Play client's own spacing, and every request waits `gapMs` after the one before. One app's
 * failure is logged with the app and storefront and the run goes on; a store that limits us (429, captcha) ends that
 * store's part of the run (the next hour tries again).
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { sql } from 'kysely';
import { getDb } from '../db/client';
import { log } from '../log';
import { ITUNES_LOOKUP_IDS, itunesStoreRatings } from '../apps/itunes';
import { getPlayStoreRating } from '../apps/googlePlay';
import { StoreError } from '../apps/upstream';
import { saveSnapshot } from './data';

/** Google Play's figure is worldwide: stored under the source's country, or this one (the `gl` asked) when it has none. */
export const PLAY_DEFAULT_COUNTRY = 'us';

/** The gap between two store requests of a run when none is given: ~1,000 requests an hour at most. */
export const DEFAULT_GAP_MS = 3_000;

/**
 * A run stops asking after this long, well inside its job's lease (server/periodic.ts runLeaseMs: 2 hours for an
 * hourly job), so no second process can take the job while this one still fetches; the rest waits for the next hour.
 */
export const RUN_BUDGET_MS = 45 * 60_000;

export type SnapshotTarget = { app_key: string; store: string; app_id: string; country: string };

export type SnapshotRunResult = { saved: number; failed: number; skipped: number };

const utcDay = (d: Date) => d.toISOString().slice(0, 10);

function groupInto<T>(groups: Map<string, T[]>, key: string, item: T): void {
  const list = groups.get(key);
  if (list) list.push(item);
  else groups.set(key, [item]);
}

/**
 * The (app, storefront) pairs to snapshot on `day` that have no snapshot yet: an app is watched while one of its
 * sources is active or an organisation has it unpaused; its App Store storefronts are those of its active feed sources
 * (a destination's choice) and of the organisations' choices, its Google Play country the sources' (PLAY_DEFAULT_COUNTRY when they have none).
 */
export async function snapshotTargets(day: string, appKeys?: readonly string[]): Promise<SnapshotTarget[]> {
  const db = await getDb();
  const only = appKeys ? sql`a.key = any(${[...appKeys]}::text[]) and` : sql``;
  const r = await sql<SnapshotTarget>`
    with watched as (
      select a.key, a.store, a.app_id from apps a
       where ${only} (exists (select 1 from monitored_sources s where s.app_key = a.key and s.status = 'active')
          or exists (select 1 from org_apps oa where oa.app_key = a.key and oa.plan_paused_at is null))
    ), pairs as (
      select w.key as app_key, w.store, w.app_id, s.country
        from watched w join monitored_sources s on s.app_key = w.key and s.kind = 'appstore_feed' and s.status = 'active'
       where w.store = 'apple_app_store' and s.country <> ''
      union
      select w.key, w.store, w.app_id, c.country
        from watched w join org_apps oa on oa.app_key = w.key and oa.plan_paused_at is null
       cross join unnest(oa.countries) as c(country)
       where w.store = 'apple_app_store'
      union
      select w.key, w.store, w.app_id, coalesce(nullif(s.country, ''), ${PLAY_DEFAULT_COUNTRY})
        from watched w left join monitored_sources s on s.app_key = w.key and s.status <> 'disabled'
       where w.store <> 'apple_app_store'
    )
    select p.app_key, p.store, p.app_id, p.country from pairs p
     where not exists (select 1 from store_rating_snapshots x where x.app_key = p.app_key and x.country = p.country and x.day = ${day}::date)
     order by p.store, p.country, p.app_key`.execute(db);
  return r.rows;
}

/**
 * One run: snapshot what `now`'s UTC day still lacks (of `appKeys` only, when given: an app just added). Never throws
 * for a store's failure (logged per app); stops asking after `budgetMs`, the rest left to the next run.
 */
export async function snapshotStoreRatings(
  opts: { now?: Date; gapMs?: number; budgetMs?: number; signal?: AbortSignal; appKeys?: readonly string[] } = {},
): Promise<SnapshotRunResult> {
  const day = utcDay(opts.now ?? new Date());
  const gapMs = opts.gapMs ?? DEFAULT_GAP_MS;
  const stopAt = Date.now() + (opts.budgetMs ?? RUN_BUDGET_MS);
  const stop = () => opts.signal?.aborted === true || Date.now() >= stopAt;
  const targets = await snapshotTargets(day, opts.appKeys);
  const result: SnapshotRunResult = { saved: 0, failed: 0, skipped: 0 };
  const runLog = log.child({ job: 'store-ratings', day });
  let requests = 0;
  const pace = async () => {
    if (requests++ > 0 && gapMs > 0) await sleep(gapMs, undefined, { signal: opts.signal }).catch(() => undefined);
  };

  const blocked = new Set<string>();
  const failed = (t: SnapshotTarget | SnapshotTarget[], err: unknown) => {
    const list = Array.isArray(t) ? t : [t];
    result.failed += list.length;
    const kind = err instanceof StoreError ? err.kind : 'error';
    if (kind === 'blocked') blocked.add(list[0].store);
    runLog.warn('store rating snapshot failed', {
      store: list[0].store,
      country: list[0].country,
      apps: list.map((x) => x.app_key),
      kind,
      err: err instanceof Error ? err.message : String(err),
    });
  };

  // App Store: per storefront, ITUNES_LOOKUP_IDS apps per lookup.
  const apple = new Map<string, SnapshotTarget[]>();
  for (const t of targets.filter((x) => x.store === 'apple_app_store')) groupInto(apple, t.country, t);
  for (const [country, list] of apple) {
    for (let i = 0; i < list.length; i += ITUNES_LOOKUP_IDS) {
      if (stop() || blocked.has('apple_app_store')) {
        result.skipped += list.length - i;
        break;
      }
      const chunk = list.slice(i, i + ITUNES_LOOKUP_IDS);
      await pace();
      if (opts.signal?.aborted) {
        result.skipped += list.length - i;
        break;
      }
      try {
        const figures = await itunesStoreRatings({ ids: chunk.map((t) => t.app_id), country });
        for (const t of chunk) {
          // Not sold in that storefront: stored as "no rating" so the day is done, not asked again every hour.
          const f = figures.get(t.app_id) ?? { rating: null, ratings_count: null };
          await saveSnapshot({ appKey: t.app_key, country, day, rating: f.rating, ratingsCount: f.ratings_count, histogram: null });
          result.saved++;
        }
      } catch (err) {
        failed(chunk, err);
      }
    }
  }

  // Google Play: one details page per app (the worldwide figure), under each of its countries.
  const play = new Map<string, SnapshotTarget[]>();
  for (const t of targets.filter((x) => x.store !== 'apple_app_store')) groupInto(play, t.app_key, t);
  for (const list of play.values()) {
    if (stop() || blocked.has(list[0].store)) {
      result.skipped += list.length;
      continue;
    }
    await pace();
    if (opts.signal?.aborted) {
      result.skipped += list.length;
      continue;
    }
    try {
      const f = (await getPlayStoreRating({ appId: list[0].app_id, country: list[0].country })) ?? { rating: null, ratings_count: null, histogram: null };
      for (const t of list) {
        await saveSnapshot({ appKey: t.app_key, country: t.country, day, rating: f.rating, ratingsCount: f.ratings_count, histogram: f.histogram });
        result.saved++;
      }
    } catch (err) {
      failed(list, err);
    }
  }

  if (targets.length > 0) runLog.info('store ratings snapshot run', { ...result, requests });
  return result;
}
