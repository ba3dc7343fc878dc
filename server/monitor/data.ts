/**
 * Data layer of destinations and their apps (tables `destinations`, `destination_apps`): every read and write of a
 * destination as a record — connect, status, pause and resume, e-mail confirmation, anonymous expiry and claims. The
 * service (service.ts) decides what to do; these functions only say how it is stored. The engine's own hot-path
 * statements (leases and outcomes in deliveryWorker.ts / deliveryMarks.ts, the fan-out in ingest.ts, source demand in
 * sourceDemand.ts) stay next to the code they serve.
 *
 * Functions taking `db` run inside the caller's transaction when given one.
 */
import { sql, type InsertObject, type Transaction, type UpdateObject } from 'kysely';
import { getDb, type DB } from '../db/client';
import type { Database, DestinationsTable } from '../db/types';
import { msInterval as ms } from '../db/interval';
import { OPEN, OPEN_STATUSES } from './deliveryStatus';
import { deleteDestinationsLocked } from './destinationDelete';

type Db = DB | Transaction<Database>;

/** Columns to set on a destination: values, or SQL such as now(). */
export type DestinationChanges = UpdateObject<Database, 'destinations'>;

export type DestinationStatusValue = DestinationsTable['status']['__select__'];

/** The columns a destination gets back when it runs again (reconnected, resumed, confirmed, claimed). */
export const RUNNING_AGAIN = {
  status: 'active',
  status_reason: null,
  disabled_cause: null,
  next_send_at: sql<Date>`now()`,
  consecutive_failures: 0,
} satisfies DestinationChanges;

// ── connect ─────────────────────────────────────────────────────────────────────────────────────────────────────────

/**
 * The oldest destination with this webhook (or address) on this platform that already watches one of these apps,
 * within the caller's scope: the organisation's own (`orgId`), or, for a connection made without an account (null),
 * anonymous ones only. Another organisation's destination is never found, so its id and status never leak.
 */
export async function findConnectedDestination(db: Db, q: { targetHash: string; platform: string; appKeys: string[]; orgId: string | null }) {
  return db
    .selectFrom('destinations as d')
    .innerJoin('destination_apps as da', 'da.destination_id', 'd.id')
    .select(['d.id', 'd.org_id', 'd.status', 'd.disabled_cause', 'd.warning'])
    .where('d.target_hash', '=', q.targetHash)
    .where('d.platform', '=', q.platform)
    .where('da.app_key', 'in', q.appKeys)
    .where('d.org_id', q.orgId === null ? 'is' : '=', q.orgId)
    .orderBy('d.created_at')
    .executeTakeFirst();
}

/** True when a destination with this webhook (or address) was disabled because its recipient unsubscribed. */
export async function isTargetUnsubscribed(db: Db, q: { targetHash: string; platform: string }): Promise<boolean> {
  const row = await db
    .selectFrom('destinations')
    .select('id')
    .where('target_hash', '=', q.targetHash)
    .where('platform', '=', q.platform)
    .where('status', '=', 'disabled')
    .where('disabled_cause', '=', 'unsubscribed')
    .executeTakeFirst();
  return Boolean(row);
}

export async function insertDestination(db: Db, values: InsertObject<Database, 'destinations'>): Promise<void> {
  await db.insertInto('destinations').values(values).execute();
}

/** Sets these columns (and `updated_at`); returns how many rows changed. `onlyStatusNot` skips a destination in that status. */
export async function updateDestination(db: Db, id: string, set: DestinationChanges, onlyStatusNot?: DestinationStatusValue): Promise<number> {
  let q = db
    .updateTable('destinations')
    .set({ ...set, updated_at: sql`now()` })
    .where('id', '=', id);
  if (onlyStatusNot) q = q.where('status', '!=', onlyStatusNot);
  const r = await q.executeTakeFirst();
  return Number(r.numUpdatedRows ?? 0);
}

/** What the welcome of each app of a destination reads: its filters, how many recent reviews, and whether all of them. */
export async function getWelcomeSettings(db: Db, id: string) {
  return db.selectFrom('destinations').select(['filters', 'welcome_count', 'backfill']).where('id', '=', id).executeTakeFirstOrThrow();
}

/** The apps a destination watches (app keys, sorted); `unwelcomed`: only those still waiting for their welcome. */
export async function destinationAppKeys(db: Db, id: string, opts: { unwelcomed?: boolean } = {}): Promise<string[]> {
  let q = db.selectFrom('destination_apps').select('app_key').where('destination_id', '=', id);
  if (opts.unwelcomed) q = q.where('welcomed_at', 'is', null);
  return (await q.orderBy('app_key').execute()).map((r) => r.app_key);
}

export async function linkDestinationApp(db: Db, id: string, appKey: string): Promise<void> {
  await db.insertInto('destination_apps').values({ destination_id: id, app_key: appKey }).execute();
}

/** The destination got its welcome for this app (queued): later polls fan out to it as usual. */
export async function markAppWelcomed(db: Db, id: string, appKey: string): Promise<void> {
  await db.updateTable('destination_apps').set({ welcomed_at: new Date() }).where('destination_id', '=', id).where('app_key', '=', appKey).execute();
}

// ── status ──────────────────────────────────────────────────────────────────────────────────────────────────────────

/** The columns a status page is built from (no target, no org). Undefined when there is no such destination. */
export async function getStatusRow(db: Db, id: string) {
  return db
    .selectFrom('destinations')
    .select(['id', 'platform', 'status', 'status_reason', 'label', 'target_hint', 'filters', 'warning', 'last_delivery_at', 'last_error', 'last_error_at', 'created_at', 'confirmation_sent_at', 'delivered_pruned'])
    .where('id', '=', id)
    .executeTakeFirst();
}

/** The apps of a destination with their titles, in the order they were connected. */
export async function destinationApps(db: Db, id: string) {
  return db
    .selectFrom('destination_apps as da')
    .innerJoin('apps as a', 'a.key', 'da.app_key')
    .select(['a.app_id', 'a.store', 'a.title', 'a.icon_url', 'a.key', 'da.welcomed_at'])
    .where('da.destination_id', '=', id)
    .orderBy('da.created_at')
    .execute();
}

/** A destination's deliveries: still open, delivered, and delivered welcomes. */
export async function deliveryCounts(db: Db, id: string) {
  return db
    .selectFrom('deliveries')
    .select([
      sql<number>`count(*) filter (where status in ${OPEN})::int`.as('queued'),
      sql<number>`count(*) filter (where status = 'delivered')::int`.as('delivered'),
      sql<number>`count(*) filter (where kind = 'welcome' and status = 'delivered')::int`.as('welcomes_delivered'),
      sql<number>`count(*) filter (where status = 'parked')::int`.as('parked'),
      sql<string | null>`max(last_error) filter (where status = 'parked')`.as('parked_reason'),
    ])
    .where('destination_id', '=', id)
    .executeTakeFirstOrThrow();
}

/** Open deliveries of active destinations, and when the first of them is due (drainDeliveries). */
export async function openDeliveryTotals(db: Db): Promise<{ n: number; next: Date | null }> {
  return db
    .selectFrom('deliveries as x')
    .innerJoin('destinations as d', 'd.id', 'x.destination_id')
    .select([sql<number>`count(*)::int`.as('n'), sql<Date | null>`min(greatest(x.next_attempt_at, d.next_send_at))`.as('next')])
    .where('x.status', 'in', OPEN_STATUSES)
    .where('d.status', '=', 'active')
    .executeTakeFirstOrThrow();
}

/** A destination's status alone (undefined when there is no such destination). */
export async function destinationStatusOf(db: Db, id: string): Promise<DestinationStatusValue | undefined> {
  return (await db.selectFrom('destinations').select('status').where('id', '=', id).executeTakeFirst())?.status;
}

// ── e-mail destinations ─────────────────────────────────────────────────────────────────────────────────────────────

/** An e-mail destination's encrypted address and status (`forUpdate`: locked until the transaction ends). */
export async function getEmailDestination(db: Db, id: string, opts: { forUpdate?: boolean } = {}) {
  let q = db.selectFrom('destinations').select(['status', 'target_enc']).where('id', '=', id).where('platform', '=', 'email');
  if (opts.forUpdate) q = q.forUpdate();
  return q.executeTakeFirst();
}

/**
 * Takes the right to send the confirmation e-mail now: true when none was sent in the last `cooldownMs` (and the
 * destination is still pending); the send time is recorded at once. One conditional UPDATE under the row lock, so two
 * requests at once (or two processes) cannot both send one within the cooldown. `previous` gives it back if the send
 * fails.
 */
export async function claimConfirmationSend(
  destinationId: string,
  cooldownMs: number,
): Promise<{ claimed: true; sentAt: Date; previous: Date | null } | { claimed: false; sentAt: Date | null }> {
  const db = await getDb();
  return db.transaction().execute(async (trx) => {
    const row = await trx
      .selectFrom('destinations')
      .select(['status', 'confirmation_sent_at'])
      .where('id', '=', destinationId)
      .forUpdate()
      .executeTakeFirst();
    if (!row || row.status !== 'pending_confirmation') return { claimed: false, sentAt: row?.confirmation_sent_at ?? null };
    const claimed = await trx
      .updateTable('destinations')
      .set({ confirmation_sent_at: sql`now()` })
      .where('id', '=', destinationId)
      .where((eb) => eb.or([eb('confirmation_sent_at', 'is', null), eb('confirmation_sent_at', '<=', sql<Date>`now() - ${ms(cooldownMs)}`)]))
      .returning('confirmation_sent_at')
      .executeTakeFirst();
    return claimed?.confirmation_sent_at
      ? { claimed: true, sentAt: new Date(claimed.confirmation_sent_at), previous: row.confirmation_sent_at }
      : { claimed: false, sentAt: row.confirmation_sent_at };
  });
}

/** The confirmation e-mail could not be sent: the next request may send it at once. */
export async function releaseConfirmationSend(destinationId: string, previous: Date | null): Promise<void> {
  const db = await getDb();
  await db.updateTable('destinations').set({ confirmation_sent_at: previous }).where('id', '=', destinationId).execute();
}

// ── anonymous connections ───────────────────────────────────────────────────────────────────────────────────────────

/** Pauses the active anonymous connections whose time is up, with this reason; returns how many. */
export async function pauseExpiredAnonymous(db: Db, reason: string): Promise<number> {
  const r = await db
    .updateTable('destinations')
    .set({ status: 'paused', status_reason: reason, disabled_cause: 'anonymous_expired', last_error: reason, last_error_at: sql`now()`, updated_at: sql`now()` })
    .where('status', '=', 'active')
    .where('org_id', 'is', null)
    .where('expires_at', '<', sql<Date>`now()`)
    .executeTakeFirst();
  return Number(r.numUpdatedRows ?? 0);
}

/**
 * What proves anonymous connections are someone's: the ids their browser's claim token names, and the target hash of
 * the address they signed in with (its e-mail destinations count once their mailbox confirmed them).
 */
export type ProvedBy = { connectionIds: string[]; confirmedAddressHash: string | null };

/** The still-anonymous connections `proof` names (locked until the transaction ends with `forUpdate`). */
export async function anonymousProved(db: Db, proof: ProvedBy, opts: { forUpdate?: boolean } = {}) {
  if (proof.connectionIds.length === 0 && !proof.confirmedAddressHash) return [];
  let q = db
    .selectFrom('destinations')
    .select(['id', 'status', 'disabled_cause'])
    .where('org_id', 'is', null)
    .where((eb) => {
      const named = proof.connectionIds.length ? [eb('id', 'in', proof.connectionIds)] : [];
      const confirmed = proof.confirmedAddressHash
        ? [eb.and([eb('platform', '=', 'email'), eb('target_hash', '=', proof.confirmedAddressHash), eb('confirmed_at', 'is not', null)])]
        : [];
      return eb.or([...named, ...confirmed]);
    })
    .orderBy('id');
  if (opts.forUpdate) q = q.forUpdate();
  return q.execute();
}

/** These destinations join the organisation and never expire. */
export async function adoptDestinations(trx: Transaction<Database>, ids: string[], orgId: string): Promise<void> {
  await trx.updateTable('destinations').set({ org_id: orgId, expires_at: null, updated_at: sql`now()` }).where('id', 'in', ids).execute();
}

/** These destinations run again from now on, their last error forgotten. */
export async function resumeDestinations(trx: Transaction<Database>, ids: string[]): Promise<void> {
  if (ids.length === 0) return;
  await trx
    .updateTable('destinations')
    .set({ ...RUNNING_AGAIN, last_error: null })
    .where('id', 'in', ids)
    .execute();
}

/** Every app any of these destinations watches. */
export async function appKeysOfDestinations(db: Db, ids: string[]): Promise<string[]> {
  if (ids.length === 0) return [];
  return (await db.selectFrom('destination_apps').select('app_key').distinct().where('destination_id', 'in', ids).execute()).map((a) => a.app_key);
}

// ── an organisation's destinations (the dashboard) ──────────────────────────────────────────────────────────────

/** What the dashboard lists of a destination: never the target itself, only its hint. */
const ORG_DESTINATION_COLUMNS = [
  'id',
  'platform',
  'status',
  'status_reason',
  'disabled_cause',
  'label',
  'target_hint',
  'filters',
  'translate_to',
  'spike_alerts',
  'weekly_summaries',
  'warning',
  'last_delivery_at',
  'last_error',
  'last_error_at',
  'created_at',
] as const;

/** Every destination of the organisation, newest first. */
export async function listOrgDestinationRows(db: Db, orgId: string) {
  return db.selectFrom('destinations').select(ORG_DESTINATION_COLUMNS).where('org_id', '=', orgId).orderBy('created_at', 'desc').orderBy('id').execute();
}

/** One destination of the organisation (undefined when it has none with this id: another's is not found either). */
export async function getOrgDestinationRow(db: Db, orgId: string, id: string) {
  return db.selectFrom('destinations').select(ORG_DESTINATION_COLUMNS).where('org_id', '=', orgId).where('id', '=', id).executeTakeFirst();
}

/** The apps of these destinations with their titles, in the order each was connected. */
export async function appsOfDestinations(db: Db, ids: string[]) {
  if (ids.length === 0) return [];
  return db
    .selectFrom('destination_apps as da')
    .innerJoin('apps as a', 'a.key', 'da.app_key')
    .select(['da.destination_id', 'a.key', 'a.app_id', 'a.store', 'a.title', 'a.icon_url', 'a.store_url'])
    .where('da.destination_id', 'in', ids)
    .orderBy('da.created_at')
    .orderBy('a.key')
    .execute();
}

/** Every app any destination of the organisation watches. */
export async function orgDestinationAppKeys(db: Db, orgId: string): Promise<string[]> {
  const rows = await db
    .selectFrom('destination_apps as da')
    .innerJoin('destinations as d', 'd.id', 'da.destination_id')
    .select('da.app_key')
    .distinct()
    .where('d.org_id', '=', orgId)
    .execute();
  return rows.map((r) => r.app_key);
}

/** A destination's platform and encrypted target, for sending it a message outside the queue (a test). */
export async function getDestinationTarget(db: Db, id: string) {
  return db
    .selectFrom('destinations')
    .select(['platform', 'target_enc', 'signing_secret_enc', 'status'])
    // The secret a rotation replaced signs test messages too while its grace lasts, as it signs the queue's.
    .select(sql<string | null>`case when previous_secret_expires_at > now() then previous_signing_secret_enc end`.as('previous_signing_secret_enc'))
    .where('id', '=', id)
    .executeTakeFirst();
}

/**
 * Replaces a signed webhook's encrypted secret; the one it replaces keeps signing next to it for `graceHours` (a
 * second rotation within them ends the first one's grace: only the secret just replaced is kept). Resolves when the
 * replaced secret stops signing, or null when `id` is no webhook destination.
 */
export async function setSigningSecret(db: Db, id: string, secretEnc: string, graceHours: number): Promise<Date | null> {
  const row = await db
    .updateTable('destinations')
    .set({
      previous_signing_secret_enc: sql`signing_secret_enc`,
      previous_secret_expires_at: sql`case when signing_secret_enc is null then null else now() + make_interval(hours => ${graceHours}) end`,
      signing_secret_enc: secretEnc,
      updated_at: sql`now()`,
    })
    .where('id', '=', id)
    .where('platform', '=', 'webhook')
    .returning(sql<Date>`coalesce(previous_secret_expires_at, now())`.as('previous_expires_at'))
    .executeTakeFirst();
  return row ? row.previous_expires_at : null;
}

/** The destination stops watching these apps. */
export async function unlinkDestinationApps(db: Db, id: string, appKeys: string[]): Promise<void> {
  if (appKeys.length === 0) return;
  await db.deleteFrom('destination_apps').where('destination_id', '=', id).where('app_key', 'in', appKeys).execute();
}

/**
 * Deletes a destination of the organisation with its apps and deliveries (cascade), under its apps' locks so that a
 * poll fanning out meanwhile never fails on the foreign key (destinationDelete.ts); false when it had none with this id.
 */
export async function deleteOrgDestination(db: Db, orgId: string, id: string): Promise<boolean> {
  return (await deleteDestinationsLocked(db, [id], sql<boolean>`org_id = ${orgId}`)).length === 1;
}
