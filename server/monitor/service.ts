/**
 * What the rest of ARB calls to use the monitoring engine: register apps and sources, connect destinations (with their
 * welcome), read a destination's status without secrets, pause and resume, and — for tests and tools — poll a
 * source or drain the delivery queue right now.
 */
import { z } from 'zod';
import { sql, type Transaction } from 'kysely';
import type { Database, DestinationsTable } from '../db/types';
import { getDb, type DB } from '../db/client';
import { env } from '../env';
import { log, redactUrl } from '../log';
import { decryptSecret, encryptSecret, randomId, secretHash } from '../crypto';
import { badRequest, HttpError, notFound } from '../http/errors';
import { describeZodError } from '../http/api';
import { validateWebhookUrl } from '../../lib/webhookUrls';
import { PLATFORMS, type Platform } from '../destinations/types';
import { UNSUBSCRIBED_REASON } from '../destinations/deliver';
import type { SourceCredentials, SourceKind } from '../sources/types';
import { appKey, ensureAppRow, lockApp, validateAppRef, type AppRef, type AppRow, type EnsureAppInput } from './apps';
import { destinationFiltersSchema, normalizeFilters, readFilters, type DestinationFilters } from './filters';
import { claimDestinations, createDeliveryGroups, processDestination } from './deliveryWorker';
import { OPEN, OPEN_STATUSES } from './deliveryStatus';
import { engineOptionsFromEnv, type EngineOptions } from './engine';
import { pollLeasedSource, type PollOutcome } from './poller';
import { claimSource, ensureSource, type SourceRow } from './sources';
import { isStorefrontCode, MAIN_STOREFRONTS } from '../../lib/storefronts';
import type { DestinationState } from '../../lib/api/types';
import { queueWelcome } from './welcome';
import { formatProblemFor } from './formatErrors';
import { wake } from './wake';
import { isEnginePause } from './pauses';
import { anonymousExpiry, claimConnections, pauseExpiredAnonymousConnections } from './anonymous';
import { activateNeededSources, assertSourceBudget, idleUnneededSources, sourcesToStart } from './sourceDemand';

export type { AppRef, AppRow, DestinationFilters };
export { appKey };

// ── apps and sources ────────────────────────────────────────────────────────────────────────────────────────────

export async function ensureApp(input: EnsureAppInput): Promise<AppRow> {
  return ensureAppRow(await getDb(), input);
}

export type AddSourceInput = AppRef & { kind: SourceKind; country?: string; language?: string; credentials?: SourceCredentials };

/** Watch an app through one more source (e.g. the owner's App Store Connect key). Credentials are encrypted at rest. */
export async function addSource(input: AddSourceInput): Promise<SourceRow> {
  validateAppRef(input);
  if (input.kind === 'appstore_feed' && input.country && !isStorefrontCode(input.country)) {
    throw badRequest(`country: "${input.country}" is not an App Store storefront.`);
  }
  const db = await getDb();
  const key = appKey(input);
  const app = await db.selectFrom('apps').select('key').where('key', '=', key).executeTakeFirst();
  if (!app) throw badRequest(`Unknown app ${key}: register it with ensureApp first.`);
  const source = await ensureSource(db, { appKey: key, kind: input.kind, country: input.country, language: input.language, credentials: input.credentials });
  wake('poll');
  return source;
}

/** The sources a destination for this app needs: the public feed of each wanted storefront, or Play reviews by language. */
function sourcesFor(app: AppRef, country: string | undefined, language: string | undefined): Array<{ kind: SourceKind; country?: string; language?: string }> {
  if (app.store === 'apple_app_store') {
    // 'all' = the main storefronts (lib/storefronts.ts explains why not all ~175).
    const countries = country === 'all' ? MAIN_STOREFRONTS : [country ?? 'us'];
    return countries.map((c) => ({ kind: 'appstore_feed' as const, country: c }));
  }
  return [{ kind: 'play_public', language: language ?? 'en' }];
}

// ── destinations ────────────────────────────────────────────────────────────────────────────────────────────────

export const createDestinationSchema = z
  .object({
    orgId: z.string().min(1).nullable().default(null),
    platform: z.enum(PLATFORMS as unknown as [Platform, ...Platform[]]),
    /** The webhook URL (chat platforms) … */
    url: z.string().trim().max(2048).optional(),
    /** … or the address (platform 'email'). */
    email: z.string().trim().toLowerCase().email().max(254).optional(),
    /** Channel name when known (Slack OAuth gives it), shown on the status page. */
    label: z.string().trim().max(200).optional(),
    filters: destinationFiltersSchema.optional(),
    apps: z
      .array(
        z.object({
          store: z.enum(['apple_app_store', 'google_play_store']),
          appId: z.string().trim().min(1).max(200),
          /** Needed only if the app was not registered with ensureApp yet. */
          title: z.string().trim().min(1).max(300).optional(),
          iconUrl: z.string().url().optional(),
        }),
      )
      .min(1, 'choose at least one app')
      .max(50),
    /** iOS storefront to watch (two letters), or 'all' for the main storefronts. Defaults to 'us'. */
    country: z
      .string()
      .trim()
      .toLowerCase()
      .regex(/^([a-z]{2}|all)$/, 'use a two-letter country code like "us", or "all"')
      .optional(),
    /** Google Play review language. Defaults to 'en'. */
    language: z.string().trim().toLowerCase().regex(/^[a-z]{2,3}(-[a-z0-9]{2,8})?$/, 'use a language code like "en"').optional(),
    /** How many recent reviews the welcome carries (default 5). */
    welcomeCount: z.number().int().min(0).max(50).default(5),
    /** Post every stored review of the app once, instead of the last few. */
    backfill: z.boolean().default(false),
    /** Who connected it (try-free connections have no org yet). */
    createdByEmail: z.string().trim().toLowerCase().email().optional(),
    /**
     * E-mail only: the mailbox's owner already agreed (a signed-in user adding their own address). Otherwise a new
     * e-mail destination is created 'pending_confirmation': nothing is queued for it until confirmEmailDestination.
     */
    addressConfirmed: z.boolean().default(false),
  })
  .superRefine((v, ctx) => {
    if (v.platform === 'email' ? !v.email : !v.url) {
      ctx.addIssue({ code: 'custom', path: [v.platform === 'email' ? 'email' : 'url'], message: v.platform === 'email' ? 'an e-mail address is required' : 'a webhook URL is required' });
    }
  });

export type CreateDestinationInput = z.input<typeof createDestinationSchema>;
export type CreatedDestination = { id: string; created: boolean; warning: string | null; status: DestinationStatus };

/** Why a pending e-mail destination sends nothing yet, shown on its status page. */
export function pendingConfirmationReason(hint: string): string {
  return `Waiting for ${hint} to confirm: click the link in the confirmation e-mail we sent there.`;
}

/** An e-mail address as the status page shows it: enough to recognise, not enough to harvest. */
export function addressHint(email: string): string {
  const [user, domain] = email.split('@');
  return `${user.slice(0, 2)}…@${domain}`;
}

/**
 * Welcomes every app of the destination still waiting for its welcome whose reviews are current (a source it wants has
 * been polled); the others are welcomed by their first poll. Call with the apps' locks held (lockApp).
 */
async function welcomeWaitingApps(trx: Transaction<Database>, destinationId: string): Promise<void> {
  const d = await trx.selectFrom('destinations').select(['filters', 'welcome_count', 'backfill']).where('id', '=', destinationId).executeTakeFirstOrThrow();
  const filters = readFilters(d.filters);
  const waiting = await trx.selectFrom('destination_apps').select('app_key').where('destination_id', '=', destinationId).where('welcomed_at', 'is', null).execute();
  for (const { app_key } of waiting) {
    const polled = await trx.selectFrom('monitored_sources').select('country').where('app_key', '=', app_key).where('status', '=', 'active').where('last_success_at', 'is not', null).execute();
    if (polled.some((s) => !s.country || !filters.countries?.length || filters.countries.includes(s.country))) {
      await queueWelcome(trx, { destinationId, appKey: app_key, filters, count: d.welcome_count, backfill: d.backfill });
    }
  }
}

function targetOf(input: z.output<typeof createDestinationSchema>): { target: string; hint: string; warning: string | null } {
  if (input.platform === 'email') {
    const email = input.email!;
    return { target: email, hint: addressHint(email), warning: null };
  }
  const check = validateWebhookUrl(input.platform, input.url!, { allowPrivate: env().ALLOW_PRIVATE_WEBHOOKS });
  if (!check.ok) throw badRequest(`url: ${check.error}`, 'invalid_webhook_url');
  return { target: check.url, hint: redactUrl(check.url), warning: check.warning ?? null };
}

/**
 * Connects a destination to one or more apps. Idempotent: the same webhook (or address) on the same platform for an app
 * it already watches returns the existing destination (re-enabled if it was disabled, unless its address unsubscribed:
 * 409) instead of making a second.
 * A new subscription gets a welcome: at once if the app's sources have been polled, else right after their first poll,
 * which is triggered immediately.
 */
export async function createDestination(raw: CreateDestinationInput): Promise<CreatedDestination> {
  const parsed = createDestinationSchema.safeParse(raw);
  if (!parsed.success) throw badRequest(describeZodError(parsed.error, 'destination'));
  const input = parsed.data;
  for (const a of input.apps) validateAppRef(a);
  if (input.country && input.country !== 'all' && !isStorefrontCode(input.country)) {
    throw badRequest(`country: "${input.country}" is not an App Store storefront.`);
  }
  const { target, hint, warning } = targetOf(input);
  const targetHash = secretHash('destination-target', `${input.platform}\n${target}`);
  const keys = [...new Set(input.apps.map((a) => appKey(a)))].sort(); // sorted: locks are always taken in one order
  let filters = normalizeFilters(input.filters ?? {});
  const iosCountry = input.country && input.country !== 'all' ? input.country : input.country === 'all' ? null : 'us';
  if (!filters.countries && iosCountry && input.apps.every((a) => a.store === 'apple_app_store')) {
    // Watching one storefront means wanting that storefront's reviews, even if the app is watched elsewhere too.
    filters = { ...filters, countries: [iosCountry] };
  }

  const db = await getDb();
  for (const a of input.apps) {
    if (a.title) await ensureAppRow(db, { store: a.store, appId: a.appId, title: a.title, iconUrl: a.iconUrl });
  }

  const result = await db.transaction().execute(async (trx) => {
    for (const key of keys) {
      if (!(await lockApp(trx, key))) throw badRequest(`app: ${key} is not known yet — look the app up first.`, 'unknown_app');
    }
    const existing = await trx
      .selectFrom('destinations as d')
      .innerJoin('destination_apps as da', 'da.destination_id', 'd.id')
      .select(['d.id', 'd.org_id', 'd.status', 'd.disabled_cause'])
      .where('d.target_hash', '=', targetHash)
      .where('d.platform', '=', input.platform)
      .where('da.app_key', 'in', keys)
      .orderBy('d.created_at')
      .executeTakeFirst();

    let id: string;
    let created = false;
    let pending = false;
    let confirmedNow = false;
    // Reconnecting a URL re-enables a destination a platform had refused (the owner fixed it); an address whose owner
    // clicked "unsubscribe", for any app, only comes back through a confirmation link it receives (server/subscriptions).
    const unsubscribed = await trx
      .selectFrom('destinations')
      .select('id')
      .where('target_hash', '=', targetHash)
      .where('platform', '=', input.platform)
      .where('status', '=', 'disabled')
      .where('disabled_cause', '=', 'unsubscribed')
      .executeTakeFirst();
    if (unsubscribed) {
      throw new HttpError(409, 'address_unsubscribed', 'This address unsubscribed from ARB e-mails; it is only signed up again after confirming a link sent to it.');
    }
    if (existing) {
      id = existing.id;
      // Still waiting for its mailbox, unless its owner is the one connecting it now.
      confirmedNow = existing.status === 'pending_confirmation' && input.addressConfirmed;
      pending = existing.status === 'pending_confirmation' && !confirmedNow;
      await trx
        .updateTable('destinations')
        .set({
          ...(existing.status === 'disabled' || confirmedNow || isEnginePause(existing.status, existing.disabled_cause)
            ? { status: 'active', status_reason: null, disabled_cause: null, next_send_at: sql`now()`, consecutive_failures: 0, expires_at: anonymousExpiry(existing.org_id ?? input.orgId, input.platform) }
            : {}),
          ...(confirmedNow ? { confirmed_at: sql`now()` } : {}),
          ...(input.orgId && !existing.org_id ? { org_id: input.orgId, expires_at: null } : {}),
          ...(input.label ? { label: input.label } : {}),
          updated_at: sql`now()`,
        })
        .where('id', '=', id)
        .execute();
    } else {
      id = randomId('dst');
      created = true;
      pending = input.platform === 'email' && !input.addressConfirmed;
      await trx
        .insertInto('destinations')
        .values({
          id,
          org_id: input.orgId,
          platform: input.platform,
          target_enc: encryptSecret(target),
          target_hash: targetHash,
          target_hint: hint,
          label: input.label ?? null,
          filters: JSON.stringify(filters),
          warning,
          welcome_count: input.welcomeCount,
          backfill: input.backfill,
          created_by_email: input.createdByEmail ?? null,
          ...(pending ? { status: 'pending_confirmation' as const, status_reason: pendingConfirmationReason(hint) } : {}),
          ...(input.platform === 'email' && !pending ? { confirmed_at: sql<Date>`now()` } : {}),
          expires_at: anonymousExpiry(input.orgId, input.platform),
        })
        .execute();
    }

    const subscribed = new Set(
      (await trx.selectFrom('destination_apps').select('app_key').where('destination_id', '=', id).execute()).map((r) => r.app_key),
    );
    const destFilters = existing ? readFilters((await trx.selectFrom('destinations').select('filters').where('id', '=', id).executeTakeFirstOrThrow()).filters) : filters;
    for (const a of input.apps) {
      const key = appKey(a);
      if (subscribed.has(key)) continue;
      subscribed.add(key);
      await trx.insertInto('destination_apps').values({ destination_id: id, app_key: key }).execute();
      const sources: SourceRow[] = [];
      for (const s of sourcesFor(a, input.country, input.language)) sources.push(await ensureSource(trx, { appKey: key, ...s }));
      // Reviews of this app are already current when each source it needs has been polled: welcome now (a pending
      // e-mail destination is welcomed when its mailbox confirms, with the reviews of that moment).
      if (!pending && sources.every((s) => s.last_success_at)) {
        await queueWelcome(trx, { destinationId: id, appKey: key, filters: destFilters, count: input.welcomeCount, backfill: input.backfill });
      }
    }
    // A reconnected (or resumed) destination may need sources that went idle meanwhile.
    await activateNeededSources(trx, keys);
    if (confirmedNow) await welcomeWaitingApps(trx, id);
    return { id, created };
  });

  wake('poll');
  wake('deliver');
  const status = await getDestinationStatus(result.id);
  log.info(result.created ? 'destination created' : 'destination already existed', { destinationId: result.id, platform: input.platform, apps: keys, target: hint });
  return { ...result, warning: status!.warning, status: status! };
}

/** The shared fields' meaning: lib/api/types.ts DestinationState (what the status card reads). */
export type DestinationStatus = DestinationState & {
  id: string;
  platform: Platform;
  app: { app_id: string; app_store: string; title: string; icon_url: string | null } | null;
  apps: Array<{ app_id: string; app_store: string; title: string; icon_url: string | null }>;
  filters: DestinationFilters;
  created_at: string;
};

const iso = (d: Date | null) => (d ? d.toISOString() : null);

/** Everything a status page may show about a destination — no URL, no address, no org. Null when unknown. */
export async function getDestinationStatus(id: string): Promise<DestinationStatus | null> {
  const db = await getDb();
  const d = await db
    .selectFrom('destinations')
    .select(['id', 'platform', 'status', 'status_reason', 'label', 'target_hint', 'filters', 'warning', 'last_delivery_at', 'last_error', 'last_error_at', 'created_at', 'confirmation_sent_at'])
    .where('id', '=', id)
    .executeTakeFirst();
  if (!d) return null;
  const apps = await db
    .selectFrom('destination_apps as da')
    .innerJoin('apps as a', 'a.key', 'da.app_key')
    .select(['a.app_id', 'a.store', 'a.title', 'a.icon_url', 'a.key', 'da.welcomed_at'])
    .where('da.destination_id', '=', id)
    .orderBy('da.created_at')
    .execute();
  const counts = await db
    .selectFrom('deliveries')
    .select([
      sql<number>`count(*) filter (where status in ${OPEN})::int`.as('queued'),
      sql<number>`count(*) filter (where status = 'delivered')::int`.as('delivered'),
      sql<number>`count(*) filter (where kind = 'welcome' and status = 'delivered')::int`.as('welcomes_delivered'),
    ])
    .where('destination_id', '=', id)
    .executeTakeFirstOrThrow();
  const welcome = apps.some((a) => !a.welcomed_at) ? 'waiting_for_first_poll' : counts.welcomes_delivered >= apps.length ? 'delivered' : 'queued';
  const appList = apps.map((a) => ({ app_id: a.app_id, app_store: a.store, title: a.title, icon_url: a.icon_url }));
  // An error older than the last successful delivery is history, not the current state.
  const currentError = d.last_error && (!d.last_delivery_at || (d.last_error_at && d.last_error_at > d.last_delivery_at)) ? d.last_error : null;
  return {
    id: d.id,
    platform: d.platform as Platform,
    status: d.status,
    status_reason: d.status_reason,
    label: d.label,
    target: d.target_hint,
    app: appList[0] ?? null,
    apps: appList,
    filters: readFilters(d.filters),
    warning: d.warning,
    welcome,
    queued: counts.queued,
    delivered: counts.delivered,
    last_delivery_at: iso(d.last_delivery_at),
    last_error: currentError,
    last_error_at: currentError ? iso(d.last_error_at) : null,
    source_problem: await formatProblemFor(db, apps.map((a) => a.key)),
    confirmation_sent_at: d.status === 'pending_confirmation' ? iso(d.confirmation_sent_at) : null,
    created_at: d.created_at.toISOString(),
  };
}

/**
 * Pause (stop posting, keep what is queued) or resume a destination. Resuming a disabled one re-enables it. An e-mail
 * destination waiting for its mailbox is neither: only its confirmation link starts it (409).
 */
export async function setDestinationPaused(id: string, paused: boolean, reason = 'Paused by its owner.'): Promise<DestinationStatus> {
  const db = await getDb();
  const r = await db
    .updateTable('destinations')
    .set(paused ? { status: 'paused', status_reason: reason, disabled_cause: 'owner', updated_at: sql`now()` } : { status: 'active', status_reason: null, disabled_cause: null, next_send_at: sql`now()`, consecutive_failures: 0, updated_at: sql`now()` })
    .where('id', '=', id)
    .where('status', '!=', 'pending_confirmation')
    .executeTakeFirst();
  if (!r.numUpdatedRows) {
    const d = await db.selectFrom('destinations').select('status').where('id', '=', id).executeTakeFirst();
    if (!d) throw notFound('No such destination.');
    throw new HttpError(409, 'pending_confirmation', 'This address has not confirmed yet: reviews start when the link in its confirmation e-mail is clicked.');
  }
  if (!paused) {
    const apps = await db.selectFrom('destination_apps').select('app_key').where('destination_id', '=', id).execute();
    if (await activateNeededSources(db, apps.map((a) => a.app_key))) wake('poll');
    wake('deliver');
  }
  return (await getDestinationStatus(id))!;
}

export type ConfirmedDestination = { id: string; appTitles: string[]; alreadyConfirmed: boolean };

/** An e-mail destination's address and status, for checking a confirmation link before using it. Null if unknown. */
export async function getEmailDestinationTarget(id: string): Promise<{ address: string; status: DestinationsTable['status']['__select__'] } | null> {
  const db = await getDb();
  const d = await db.selectFrom('destinations').select(['status', 'target_enc']).where('id', '=', id).where('platform', '=', 'email').executeTakeFirst();
  return d ? { address: decryptSecret(d.target_enc), status: d.status } : null;
}

/**
 * The mailbox of a pending e-mail destination said yes: it becomes active and gets its welcome with the reviews of
 * this moment (or after its app's first poll). Confirming twice changes nothing. Null when there is no such e-mail
 * destination.
 */
export async function confirmEmailDestination(id: string): Promise<ConfirmedDestination | null> {
  const db = await getDb();
  const result = await db.transaction().execute(async (trx) => {
    const keys = (await trx.selectFrom('destination_apps').select('app_key').where('destination_id', '=', id).orderBy('app_key').execute()).map((r) => r.app_key);
    for (const key of keys) await lockApp(trx, key); // the ingest's lock: a review is welcomed or fanned out, never neither
    const d = await trx.selectFrom('destinations').select('status').where('id', '=', id).where('platform', '=', 'email').forUpdate().executeTakeFirst();
    if (!d) return null;
    const alreadyConfirmed = d.status !== 'pending_confirmation';
    if (!alreadyConfirmed) {
      await trx
        .updateTable('destinations')
        .set({ status: 'active', status_reason: null, disabled_cause: null, confirmed_at: sql`now()`, next_send_at: sql`now()`, updated_at: sql`now()` })
        .where('id', '=', id)
        .execute();
      // Its sources were idle while nothing active wanted them (sourceDemand.ts): poll them again from now on.
      await activateNeededSources(trx, keys);
      await welcomeWaitingApps(trx, id);
    }
    const titles = keys.length ? (await trx.selectFrom('apps').select('title').where('key', 'in', keys).execute()).map((a) => a.title) : [];
    return { id, appTitles: titles, alreadyConfirmed };
  });
  if (!result) return null;
  if (!result.alreadyConfirmed) {
    wake('poll');
    wake('deliver');
    log.info('e-mail destination confirmed by its mailbox', { destinationId: id });
  }
  return result;
}

/** The reason an e-mail destination carries once its recipient unsubscribed (server/subscriptions handles the link). */
export const UNSUBSCRIBED = UNSUBSCRIBED_REASON;

// ── anonymous connections ───────────────────────────────────────────────────────────────────────────────────────

/**
 * Someone signed in (or signed up) with `email`: the connections made anonymously with that address become their
 * organisation's — no expiry any more, and those paused by the engine resume, with their sources polled again.
 * Called from the sign-in path once the user and organisation exist.
 */
export async function claimAnonymousConnections(input: { orgId: string; email: string }): Promise<number> {
  const db = await getDb();
  const { claimed, appKeys } = await claimConnections(db, input);
  if (claimed === 0) return 0;
  if (await activateNeededSources(db, appKeys)) wake('poll');
  wake('deliver');
  log.info('anonymous connections claimed', { orgId: input.orgId, claimed });
  return claimed;
}

/**
 * The minute sweep (jobs.ts): anonymous connections whose time is up pause; sources nothing needs stop being polled,
 * and those needed again restart. Tests call it directly.
 */
export async function sweepDemand(db?: DB): Promise<{ expired: number; idled: number; restarted: number }> {
  const d = db ?? (await getDb());
  const expired = await pauseExpiredAnonymousConnections(d);
  const idled = await idleUnneededSources(d);
  const restarted = await activateNeededSources(d);
  if (expired || idled || restarted) log.info('source demand updated', { expiredConnections: expired, idledSources: idled, restartedSources: restarted });
  if (restarted) wake('poll');
  return { expired, idled, restarted };
}

/** Refuses (503, in words) a connection to these iOS storefronts of an app when they would exceed the source budget. */
export async function assertStorefrontsFitBudget(app: AppRef, countries: readonly string[]): Promise<void> {
  const db = await getDb();
  await assertSourceBudget(db, await sourcesToStart(db, appKey(app), 'appstore_feed', [...countries]));
}

// ── run the engine's steps on demand (tests, tools, the connect flow) ───────────────────────────────────────────────

/** Polls one source right now (unless another worker is polling it this moment) and returns what happened. */
export async function pollNow(sourceId: number, overrides: Partial<EngineOptions> = {}): Promise<PollOutcome | null> {
  const db = await getDb();
  const opts = engineOptionsFromEnv(overrides);
  const source = await claimSource(db, sourceId, opts.workerId, opts.leaseMs);
  if (!source) return null;
  return pollLeasedSource(db, source, { workerId: opts.workerId, intervalSeconds: opts.intervalSeconds, adapterFor: opts.adapterFor });
}

/** Polls every source of an app now. */
export async function pollAppNow(ref: AppRef, overrides: Partial<EngineOptions> = {}): Promise<Array<PollOutcome | null>> {
  const db = await getDb();
  const ids = await db.selectFrom('monitored_sources').select('id').where('app_key', '=', appKey(ref)).where('status', '=', 'active').execute();
  const out: Array<PollOutcome | null> = [];
  for (const { id } of ids) out.push(await pollNow(id, overrides));
  return out;
}

/**
 * Sends everything that is due now, destination by destination, until nothing is due. With `waitForRetries`, also
 * waits out Retry-After and backoff pauses until the queue is empty or `timeoutMs` passes.
 */
export async function drainDeliveries(overrides: Partial<EngineOptions> & { waitForRetries?: boolean; timeoutMs?: number } = {}): Promise<{ sent: number; open: number }> {
  const db = await getDb();
  const opts = engineOptionsFromEnv(overrides);
  const deadline = Date.now() + (overrides.timeoutMs ?? 30_000);
  const groups = createDeliveryGroups(db, opts.workerId, opts.leaseMs);
  let sent = 0;
  for (;;) {
    const claimed = await claimDestinations(db, opts.workerId, opts.concurrency, opts.leaseMs);
    const results = await Promise.all(claimed.map((d) => processDestination(db, d, { ...opts, groups, maxHoldMs: 10_000 })));
    sent += results.reduce((a, b) => a + b.sent, 0);
    if (claimed.length > 0) continue;
    const open = await db
      .selectFrom('deliveries as x')
      .innerJoin('destinations as d', 'd.id', 'x.destination_id')
      .select([sql<number>`count(*)::int`.as('n'), sql<Date | null>`min(greatest(x.next_attempt_at, d.next_send_at))`.as('next')])
      .where('x.status', 'in', OPEN_STATUSES)
      .where('d.status', '=', 'active')
      .executeTakeFirstOrThrow();
    if (!overrides.waitForRetries || open.n === 0 || Date.now() > deadline) return { sent, open: open.n };
    const next = open.next ? new Date(open.next).getTime() : Date.now() + 100;
    await new Promise((r) => setTimeout(r, Math.min(Math.max(next - Date.now(), 20), Math.max(0, deadline - Date.now()), 1000)));
  }
}
