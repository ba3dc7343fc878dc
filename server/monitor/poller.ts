/**
 * One poll of one leased source: fetch through the store adapter (outside any transaction — HTTP must never hold
 * database locks), then hand the result to the one-transaction ingest. Failures are recorded on the source and never
 * escape: a permanent one (wrong app id, revoked key) pauses the source with its reason, a transient one reschedules it
 * with backoff.
 */
import type { DB } from '../db/client';
import { log } from '../log';
import { getAdapter } from '../sources';
import { SourceError, SourceFormatError, type PollResult, type SourceAdapter, type SourceKind } from '../sources/types';
import { lockApp, type AppRow } from './apps';
import { count } from './counters';
import { recordPoll } from '../metrics/registry';
import { recordFormatError } from './formatErrors';
import { readFilters } from './filters';
import { ingestPollResult, type IngestOutcome } from './ingest';
import { recordPollFailure, releaseSource, sourceConfigOf, type SourceRow } from './sources';
import { queueWelcome, unreadStorefronts, welcomeDueAfter } from './welcome';
import { wake } from './wake';

/** The App Store feed has 10 pages; the others page until the watermark. Bounded so one poll stays short. */
const MAX_PAGES = 10;

export type PollOutcome =
  | ({ ok: true } & IngestOutcome)
  | { ok: false; error: string; permanent: boolean }
  | { ok: false; error: 'lease_lost' | 'aborted'; permanent: false };

export type PollDeps = {
  workerId: string;
  intervalSeconds: number;
  signal?: AbortSignal;
  /** Tests: replace the adapter (defaults to the registered one for the source's kind). */
  adapterFor?: (kind: SourceKind) => SourceAdapter;
};

/** What a poll needs of its app: the store and the store's id. Both are what the app's key is made of, so they never change. */
export type PolledApp = Pick<AppRow, 'key' | 'store' | 'app_id'>;

/**
 * Remembered per app key instead of read for every poll of every source: a statement less per poll (the most common
 * statement after the claim). Bounded: forgotten wholesale past this many apps, then read again as polled.
 */
const knownApps = new Map<string, PolledApp>();
const KNOWN_APPS_MAX = 100_000;

async function loadApp(db: DB, key: string): Promise<PolledApp> {
  const known = knownApps.get(key);
  if (known) return known;
  const app = (await db.selectFrom('apps').select(['key', 'store', 'app_id']).where('key', '=', key).executeTakeFirstOrThrow()) as PolledApp;
  if (knownApps.size >= KNOWN_APPS_MAX) knownApps.clear();
  knownApps.set(key, app);
  return app;
}

/**
 * A source that has never polled successfully and just failed: welcome its waiting destinations anyway (intro plus
 * whatever reviews are stored) once no other storefront they want is still unread, so someone who just connected sees
 * that the connection works.
 */
async function welcomeDespiteFailure(db: DB, source: SourceRow): Promise<number> {
  if (source.last_success_at) return 0;
  return db.transaction().execute(async (trx) => {
    await lockApp(trx, source.app_key);
    const waiting = await trx
      .selectFrom('destination_apps as da')
      .innerJoin('destinations as d', 'd.id', 'da.destination_id')
      .select(['d.id', 'd.filters', 'd.welcome_count', 'd.backfill'])
      .where('da.app_key', '=', source.app_key)
      .where('da.welcomed_at', 'is', null)
      .where('d.status', '=', 'active')
      .execute();
    const unread = waiting.length ? await unreadStorefronts(trx, source) : [];
    let welcomed = 0;
    for (const d of waiting) {
      const filters = readFilters(d.filters);
      if (!welcomeDueAfter(filters, source, unread)) continue; // another storefront's first read welcomes it
      await queueWelcome(trx, { destinationId: d.id, appKey: source.app_key, filters, count: d.welcome_count, backfill: d.backfill });
      welcomed++;
    }
    return welcomed;
  });
}

export async function pollLeasedSource(db: DB, source: SourceRow, deps: PollDeps): Promise<PollOutcome> {
  const started = performance.now();
  const plog = log.child({ sourceId: source.id, kind: source.kind, app: source.app_key, country: source.country || undefined });
  const app = await loadApp(db, source.app_key);
  let result: PollResult;
  try {
    const adapter = (deps.adapterFor ?? getAdapter)(source.kind as SourceKind);
    result = await adapter.poll(sourceConfigOf(source, app.app_id), { since: source.watermark, signal: deps.signal, maxPages: MAX_PAGES });
  } catch (err) {
    if (deps.signal?.aborted) {
      // Shutting down: give the source back untouched; whoever polls next starts from the same watermark.
      await releaseSource(db, source.id, deps.workerId);
      return { ok: false, error: 'aborted', permanent: false };
    }
    const permanent = err instanceof SourceError ? err.permanent : false;
    const message = err instanceof Error ? err.message : String(err);
    await recordPollFailure(db, source, deps.workerId, { message, permanent }, deps.intervalSeconds);
    count('poll_failed');
    recordPoll(app.store, false);
    if (err instanceof SourceFormatError) await recordFormatError(db, source, message, plog);
    plog.warn('poll failed', { error: message, permanent, failures: source.failure_count + 1, ms: Math.round(performance.now() - started) });
    if ((await welcomeDespiteFailure(db, source)) > 0) wake('deliver');
    return { ok: false, error: message, permanent };
  }

  const outcome = await ingestPollResult(db, source, app, result, { workerId: deps.workerId, intervalSeconds: deps.intervalSeconds });
  if (!outcome) {
    plog.warn('poll result dropped: the lease expired and another worker owns the source now');
    return { ok: false, error: 'lease_lost', permanent: false };
  }
  count('polled');
  recordPoll(app.store, true);
  count('ingested', outcome.inserted);
  count('edited', outcome.edited);
  count('fanned_out', outcome.deliveries);
  if (outcome.deliveries > 0 || outcome.welcomed > 0) wake('deliver');
  plog.info('polled', {
    fetched: outcome.fetched,
    inserted: outcome.inserted,
    edited: outcome.edited,
    deliveries: outcome.deliveries,
    welcomed: outcome.welcomed,
    complete: result.complete,
    ms: Math.round(performance.now() - started),
  });
  return { ok: true, ...outcome };
}

