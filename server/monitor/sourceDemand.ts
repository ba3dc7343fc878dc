/**
 * Which sources are polled: only those something needs — an active destination that wants the source's storefront,
 * an active e-mail digest for the app, an organisation that added the app (in that storefront), or an owner's own
 * store key (which, while its source is active, makes the app's public sources unneeded: see `needed`). The others are 'idle': not claimed, not polled,
 * not counted against the source budget. A sweep (every minute, jobs.ts) moves sources both ways, and the paths that
 * make a source needed again (connecting, resuming, claiming) reactivate it at once.
 *
 * A source that comes back starts over as if new: no watermark, no successful poll yet, "created" now. So its first
 * poll records quietly what was written while nobody listened (ingest.ts isAnnouncedAsNew), and the welcome of a
 * destination connected meanwhile waits for that poll instead of using stale reviews.
 *
 * The source budget (MAX_MONITORED_SOURCES) bounds how many sources are polled at once on this installation: a
 * connection that would need one more is refused with 503 and words that say what to do.
 */
import { sql, type Transaction } from 'kysely';
import type { DB } from '../db/client';
import type { Database } from '../db/types';
import { env } from '../env';
import { HttpError } from '../http/errors';

type Db = DB | Transaction<Database>;

export const IDLE_REASON = 'No connection needs this source now: it is not polled until one does.';

/** A source just added waits this long before a sweep may idle it (its first poll and a welcome may be on the way). */
const GRACE = sql`interval '10 minutes'`;

/**
 * SQL, for a destination `d` linked to an app by `da`: its organisation has not paused that app because its plan allows
 * fewer apps (a paused app is neither polled for the organisation nor delivered to its channels).
 */
export const NOT_PLAN_PAUSED = sql`not exists (
    select 1 from org_apps pa where pa.org_id = d.org_id and pa.app_key = da.app_key and pa.plan_paused_at is not null)`;

/**
 * SQL: something needs source `s` (an alias of monitored_sources in the statement).
 * - An official API source (App Store Connect, Play Developer API) is needed while it carries an owner's credentials.
 * - A public source (App Store feed, public Google Play) is needed by a destination, an organisation's app or a digest
 *   that wants it, unless the app is read through an active official source: that one reads every territory (and
 *   every language), so the public sources would only read the same reviews again under other ids. The official source
 *   then serves everyone watching the app, organisations without credentials included. When it stops (credentials
 *   removed, or paused because the store refused them), the public sources are needed again and come back.
 */
const needed = sql`(
  case when s.kind in ('appstore_connect', 'play_developer') then s.credentials_enc is not null
  else not exists (
    select 1 from monitored_sources o
     where o.app_key = s.app_key and o.kind in ('appstore_connect', 'play_developer') and o.status = 'active' and o.credentials_enc is not null)
  and (
  exists (
    select 1 from destination_apps da join destinations d on d.id = da.destination_id
     where da.app_key = s.app_key and d.status = 'active' and ${NOT_PLAN_PAUSED}
       and (s.country = '' or coalesce(jsonb_array_length(d.filters -> 'countries'), 0) = 0 or (d.filters -> 'countries') ? s.country))
  or exists (
    select 1 from org_apps oa where oa.app_key = s.app_key and oa.plan_paused_at is null and (s.country = '' or s.country = any(oa.countries)))
  or exists (
    select 1 from email_subscriptions es
     where es.app_key = s.app_key and es.digest_status = 'active' and (es.country = '' or s.country = '' or es.country = s.country)))
  end)`;

/** Starting over, for a source that comes back from idle (see the module comment). */
const RESTART = sql`status = 'active', status_reason = null, watermark = null, last_success_at = null, failure_count = 0,
                    last_error = null, created_at = now(), next_poll_at = now()`;

/** Idle sources of these apps (all apps when omitted) that something needs again are polled again, from now on. */
export async function activateNeededSources(db: Db, appKeys?: string[]): Promise<number> {
  if (appKeys && appKeys.length === 0) return 0;
  const r = await sql`
    update monitored_sources s set ${RESTART}
     where s.status = 'idle' ${appKeys ? sql`and s.app_key = any(${appKeys}::text[])` : sql``} and ${needed}`.execute(db);
  return Number(r.numAffectedRows ?? 0);
}

/**
 * Sources nothing needs any more stop being polled (unless just added, or being polled right now). With `appKeys`
 * (an app someone just stopped wanting), only those apps' sources, and at once: no grace for a new source.
 */
export async function idleUnneededSources(db: Db, appKeys?: string[]): Promise<number> {
  if (appKeys && appKeys.length === 0) return 0;
  const r = await sql`
    update monitored_sources s set status = 'idle', status_reason = ${IDLE_REASON}
     where s.status = 'active' ${appKeys ? sql`and s.app_key = any(${appKeys}::text[])` : sql`and s.created_at < now() - ${GRACE}`}
       and (s.lease_until is null or s.lease_until < now()) and not ${needed}`.execute(db);
  return Number(r.numAffectedRows ?? 0);
}

/** Brings one idle source back (ensureSource: something asks for it right now). */
export async function restartIdleSource(db: Db, id: number): Promise<void> {
  await sql`update monitored_sources set ${RESTART} where id = ${id} and status = 'idle'`.execute(db);
}

export function sourceBudgetError(max: number): HttpError {
  return new HttpError(
    503,
    'source_budget_full',
    `This ARB server is already watching as many app stores and countries as it can poll (${max.toLocaleString('en-US')}), so it cannot start watching this one now. Try again later, or pick one country instead of “All countries”.`,
    { 'Retry-After': '3600' },
  );
}

/** Refuses (503) when `more` sources would take the polled sources past MAX_MONITORED_SOURCES. */
export async function assertSourceBudget(db: Db, more: number): Promise<void> {
  if (more <= 0) return;
  const max = env().MAX_MONITORED_SOURCES;
  const r = await sql<{ n: number }>`select count(*)::int as n from monitored_sources where status = 'active'`.execute(db);
  if (r.rows[0].n + more > max) throw sourceBudgetError(max);
}

/** How many of these sources of an app would start being polled (missing, or idle). */
export async function sourcesToStart(db: Db, appKey: string, kind: string, countries: string[]): Promise<number> {
  const r = await sql<{ n: number }>`
    select count(*)::int as n from monitored_sources
     where app_key = ${appKey} and kind = ${kind} and language = '' and country = any(${countries}::text[]) and status <> 'idle'`.execute(db);
  return countries.length - r.rows[0].n;
}
