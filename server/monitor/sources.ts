/**
 * The monitored_sources table: what is polled, when, and by whom.
 *
 * Claims are leases: a worker sets lease_owner/lease_until on due rows picked with FOR UPDATE SKIP LOCKED (so two
 * workers never pick the same row), polls outside any transaction, then commits the result and clears the lease in the
 * ingest transaction. A worker that dies leaves a lease that simply expires; the row is due again and another worker
 * takes it. Nothing was committed for the dead poll, so nothing is lost and nothing doubles.
 */
import { sql, type Selectable, type Transaction } from 'kysely';
import type { DB } from '../db/client';
import type { Database, MonitoredSourcesTable } from '../db/types';
import { decryptSecret, encryptSecret } from '../crypto';
import { msInterval } from '../db/interval';
import { PREPARED } from '../db/preparedStatements';
import type { SourceConfig, SourceCredentials, SourceKind } from '../sources/types';
import { assertSourceBudget, IDLE_REASON, restartIdleSource } from './sourceDemand';

export type SourceRow = Selectable<MonitoredSourcesTable>;

/** The sources that read through a store's official API with an owner's credentials. */
export const OFFICIAL_KINDS: SourceKind[] = ['appstore_connect', 'play_developer'];

export type EnsureSourceInput = {
  appKey: string;
  kind: SourceKind;
  country?: string | null;
  language?: string | null;
  credentials?: SourceCredentials | null;
};

/**
 * Creates the source if missing (due at once, so a new app is polled right away) or brings it back if idle; returns
 * it either way. Starting to poll one more source must fit the source budget (503 otherwise, sourceDemand.ts).
 */
export async function ensureSource(db: DB | Transaction<Database>, input: EnsureSourceInput): Promise<SourceRow> {
  const country = input.kind === 'appstore_feed' ? (input.country ?? 'us').toLowerCase() : '';
  const language = input.kind === 'play_public' ? (input.language ?? 'en').toLowerCase() : '';
  const credentials_enc = input.credentials ? encryptSecret(JSON.stringify(input.credentials)) : null;
  const current = await db
    .selectFrom('monitored_sources')
    .select(['id', 'status'])
    .where('app_key', '=', input.appKey)
    .where('kind', '=', input.kind)
    .where('country', '=', country)
    .where('language', '=', language)
    .executeTakeFirst();
  // A public source of an app read through its official API stays (or starts) idle: the official source reads its
  // reviews already, and sourceDemand.ts brings the public one back when the official one stops.
  const replaced = !OFFICIAL_KINDS.includes(input.kind) && (!current || current.status === 'idle') && (await hasActiveOfficialSource(db, input.appKey));
  if (replaced && current) return db.selectFrom('monitored_sources').selectAll().where('id', '=', current.id).executeTakeFirstOrThrow();
  if (!replaced && (!current || current.status === 'idle')) await assertSourceBudget(db, 1);
  if (!replaced && current?.status === 'idle') await restartIdleSource(db, current.id);
  const inserted = await db
    .insertInto('monitored_sources')
    .values({ app_key: input.appKey, kind: input.kind, country, language, credentials_enc, ...(replaced ? { status: 'idle', status_reason: IDLE_REASON } : {}) })
    .onConflict((oc) => oc.columns(['app_key', 'kind', 'country', 'language']).doNothing())
    .returningAll()
    .executeTakeFirst();
  if (inserted) return inserted;
  if (credentials_enc) {
    // New credentials for an official API source: store them and give the source another chance right away.
    return db
      .updateTable('monitored_sources')
      .set({ credentials_enc, status: 'active', status_reason: null, failure_count: 0, next_poll_at: sql`now()` })
      .where('app_key', '=', input.appKey)
      .where('kind', '=', input.kind)
      .where('country', '=', country)
      .where('language', '=', language)
      .returningAll()
      .executeTakeFirstOrThrow();
  }
  return db
    .selectFrom('monitored_sources')
    .selectAll()
    .where('app_key', '=', input.appKey)
    .where('kind', '=', input.kind)
    .where('country', '=', country)
    .where('language', '=', language)
    .executeTakeFirstOrThrow();
}

/** True while the app is read through an official API source (active, with credentials). */
export async function hasActiveOfficialSource(db: DB | Transaction<Database>, appKey: string): Promise<boolean> {
  const row = await db
    .selectFrom('monitored_sources')
    .select('id')
    .where('app_key', '=', appKey)
    .where('kind', 'in', OFFICIAL_KINDS)
    .where('status', '=', 'active')
    .where('credentials_enc', 'is not', null)
    .executeTakeFirst();
  return row !== undefined;
}

/** The official API sources (kinds that read with an owner's key) of the app stop carrying credentials; returns how many did. */
export async function clearSourceCredentials(db: DB | Transaction<Database>, appKey: string): Promise<number> {
  const r = await db
    .updateTable('monitored_sources')
    .set({ credentials_enc: null })
    .where('app_key', '=', appKey)
    .where('kind', 'in', OFFICIAL_KINDS)
    .where('credentials_enc', 'is not', null)
    .executeTakeFirst();
  return Number(r.numUpdatedRows);
}

/** The countries ('' for sources without one) of an app's active sources that have been polled successfully. */
export async function polledSourceCountries(db: DB | Transaction<Database>, appKey: string): Promise<string[]> {
  const rows = await db.selectFrom('monitored_sources').select('country').where('app_key', '=', appKey).where('status', '=', 'active').where('last_success_at', 'is not', null).execute();
  return rows.map((r) => r.country);
}

/** Up to `limit` active, due, unleased sources, leased to `workerId`; `busy` are the ones this process is still polling. */
export async function claimDueSources(db: DB, workerId: string, limit: number, leaseMs: number, busy: number[] = []): Promise<SourceRow[]> {
  const r = await sql<SourceRow>`${PREPARED}
    update monitored_sources s
       set lease_owner = ${workerId}, lease_until = now() + ${msInterval(leaseMs)}, last_polled_at = now()
     where s.id in (
       select id from monitored_sources
        where status = 'active' and next_poll_at <= now() and (lease_until is null or lease_until < now())
          and id <> all(${busy}::bigint[])
        order by next_poll_at
        limit ${limit}
        for update skip locked)
    returning s.*`.execute(db);
  return r.rows;
}

/** Lease one particular source now (pollNow), whether due or not; null when another worker holds it. */
export async function claimSource(db: DB, id: number, workerId: string, leaseMs: number): Promise<SourceRow | null> {
  const r = await sql<SourceRow>`
    update monitored_sources s
       set lease_owner = ${workerId}, lease_until = now() + ${msInterval(leaseMs)}, last_polled_at = now()
     where s.id in (
       select id from monitored_sources
        where id = ${id} and (lease_until is null or lease_until < now() or lease_owner = ${workerId})
        for update skip locked)
    returning s.*`.execute(db);
  return r.rows[0] ?? null;
}

/** Give a lease back without recording anything (shutdown mid-poll): the source stays due for the next worker. */
export async function releaseSource(db: DB, id: number, workerId: string): Promise<void> {
  await db
    .updateTable('monitored_sources')
    .set({ lease_owner: null, lease_until: null })
    .where('id', '=', id)
    .where('lease_owner', '=', workerId)
    .execute();
}

/** Longest wait between polls of a failing source: a store outage should not stop us for long once it is over. */
const MAX_FAILURE_BACKOFF_SECONDS = 6 * 3600;

export function failureBackoffSeconds(intervalSeconds: number, failures: number): number {
  return Math.min(MAX_FAILURE_BACKOFF_SECONDS, intervalSeconds * 2 ** Math.max(0, failures - 1));
}

export async function recordPollFailure(
  db: DB,
  source: SourceRow,
  workerId: string,
  failure: { message: string; permanent: boolean },
  intervalSeconds: number,
): Promise<void> {
  const failures = source.failure_count + 1;
  await db
    .updateTable('monitored_sources')
    .set({
      failure_count: failures,
      last_error: failure.message.slice(0, 500),
      lease_owner: null,
      lease_until: null,
      ...(failure.permanent
        ? { status: 'paused', status_reason: failure.message.slice(0, 500) }
        : { next_poll_at: sql`now() + ${failureBackoffSeconds(intervalSeconds, failures)} * interval '1 second'` }),
    })
    .where('id', '=', source.id)
    .where('lease_owner', '=', workerId)
    .execute();
}

export function sourceConfigOf(source: SourceRow, appId: string): SourceConfig {
  const config: SourceConfig = { kind: source.kind as SourceKind, appId };
  if (source.country) config.country = source.country;
  if (source.language) config.language = source.language;
  if (source.credentials_enc) config.credentials = JSON.parse(decryptSecret(source.credentials_enc)) as SourceCredentials;
  return config;
}
