/**
 * What the rest of ARB calls to use the monitoring engine: register apps and sources, connect destinations (with their
 * welcome), pause, resume, change and confirm them, and — for tests and tools — poll a source or drain the delivery
 * queue right now. A destination's status and the other record reads are server/destinations/records.ts.
 *
 * This layer orchestrates: it takes input its caller already checked (requests are checked where they are read, e.g.
 * server/connect/payload.ts), reads and writes destinations through data.ts, decides which sources a connection needs
 * (wantedSources.ts), keeps the locks that make welcome and fan-out agree, and wakes the loops.
 */
import { sql, type Transaction } from 'kysely';
import type { Database } from '../db/types';
import { getDb, type DB } from '../db/client';
import { log, redactUrl } from '../log';
import { encryptSecret, randomId, secretHash } from '../crypto';
import { badRequest, HttpError, notFound } from '../http/errors';
import type { Platform } from '../destinations/types';
import { UNSUBSCRIBED_REASON } from '../destinations/deliver';
import { newSigningSecret } from '../destinations/signing';
import type { SourceCredentials, SourceKind } from '../sources/types';
import { isStorefrontCode } from '@/shared/storefronts';
import { appKey, appTitles, ensureAppRow, lockApp, validateAppRef, type AppRef, type AppRow, type EnsureAppInput } from './apps';
import {
  destinationAppKeys,
  destinationStatusOf,
  findConnectedDestination,
  getEmailDestination,
  getWelcomeSettings,
  insertDestination,
  isTargetUnsubscribed,
  linkDestinationApp,
  openDeliveryTotals,
  RUNNING_AGAIN,
  unlinkDestinationApps,
  updateDestination,
} from './data';
import { normalizeFilters, readFilters, type DestinationFilters } from './filters';
import { claimDestinations, createDeliveryGroups, processDestination } from './deliveryWorker';
import { engineOptionsFromEnv, type EngineOptions } from './engine';
import { pollLeasedSource, type PollOutcome } from './poller';
import { claimSource, ensureSource, polledSourceCountries, type SourceRow } from './sources';
import { storefrontsFor, sourcesFor } from './wantedSources';
import { queueWelcome, wantsStorefront } from './welcome';
import { wake } from './wake';
import { isEnginePause } from './pauses';
import { anonymousExpiry, claimConnections, connectionsInClaimToken, pauseExpiredAnonymousConnections, provedConnections } from './anonymous';
import { activateNeededSources, idleUnneededSources } from './sourceDemand';

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

// ── destinations ────────────────────────────────────────────────────────────────────────────────────────────────

/** Where a destination posts: a webhook of a chat platform, or an e-mail address. */
export type DestinationTarget =
  | {
      platform: Exclude<Platform, 'email'>;
      /** The webhook URL (shared/webhookUrls.ts validateWebhookUrl's `url`). */
      url: string;
      /** What that check warned about (a Teams connector being retired), shown on the status page. */
      warning?: string | null;
    }
  | { platform: 'email'; email: string };

/**
 * A destination to connect, already checked by whoever read the request (the connect flow: server/connect/payload.ts):
 * a webhook URL of its platform's shape as that check returned it, or a lower-case address; app ids of their store's
 * form; a storefront code or ALL_COUNTRIES. The service does not check them again.
 */
export type NewDestination = DestinationTarget & {
  /** The owning organisation; null or absent for a connection made without an account (it expires, anonymous.ts). */
  orgId?: string | null;
  /** Channel name when known (Slack OAuth gives it), shown on the status page. */
  label?: string;
  /**
   * "Add to Slack": the workspace (saved in slack_workspaces first) whose messages get a Reply button. Written with the
   * destination, in its transaction, so the welcome and the first reviews — which the delivery loop may send at once —
   * already carry the button.
   */
  slackTeamId?: string;
  /** "Add to Slack": the channel the install's webhook posts to (asking ARB in that channel reads these apps). */
  slackChannelId?: string;
  filters?: DestinationFilters;
  apps: Array<AppRef & { /** Needed only if the app was not registered with ensureApp yet. */ title?: string; iconUrl?: string }>;
  /** iOS storefront to watch, or ALL_COUNTRIES; 'us' when absent (wantedSources.ts). */
  country?: string;
  /** Google Play review language; 'en' when absent. */
  language?: string;
  /** How many recent reviews the welcome carries (default 5). */
  welcomeCount?: number;
  /** Post every stored review of the app once, instead of the last few. */
  backfill?: boolean;
  /** Who connected it (try-free connections have no org yet). */
  createdByEmail?: string;
  /**
   * E-mail only: the mailbox's owner already agreed (a signed-in user adding their own address). Otherwise a new
   * e-mail destination is created 'pending_confirmation': nothing is queued for it until confirmEmailDestination.
   */
  addressConfirmed?: boolean;
  /**
   * Runs in the creating transaction just before a new destination is inserted (not when an existing one is reused),
   * after the apps' locks: the caller's plan check, so that it and the insert cannot be split by another creation.
   */
  beforeInsert?: (trx: Transaction<Database>) => Promise<void>;
};

export const DEFAULT_WELCOME_COUNT = 5;

export type CreatedDestination = {
  id: string;
  created: boolean;
  warning: string | null;
  /** A new signed webhook's `whsec_` secret: in this answer only (stored encrypted; rotateSigningSecret makes a new one). */
  signingSecret: string | null;
};

/** Why a pending e-mail destination sends nothing yet, shown on its status page. */
export function pendingConfirmationReason(hint: string): string {
  return `Waiting for ${hint} to confirm: click the link in the confirmation e-mail we sent there.`;
}

/** An e-mail address as the status page shows it: enough to recognise, not enough to harvest. */
export function addressHint(email: string): string {
  const [user, domain] = email.split('@');
  return `${user.slice(0, 2)}…@${domain}`;
}

/** A source of the app that a destination with `filters` wants (no country: the official API, every storefront) has been polled. */
async function reviewsCurrentFor(trx: Transaction<Database>, appKey: string, filters: DestinationFilters): Promise<boolean> {
  const polled = await polledSourceCountries(trx, appKey);
  return polled.some((country) => wantsStorefront(filters, country));
}

/**
 * Welcomes every app of the destination still waiting for its welcome whose reviews are current (a source it wants has
 * been polled); the others are welcomed by their first poll. Call with the apps' locks held (lockApp).
 */
async function welcomeWaitingApps(trx: Transaction<Database>, destinationId: string): Promise<void> {
  const d = await getWelcomeSettings(trx, destinationId);
  const filters = readFilters(d.filters);
  for (const app_key of await destinationAppKeys(trx, destinationId, { unwelcomed: true })) {
    if (await reviewsCurrentFor(trx, app_key, filters)) {
      await queueWelcome(trx, { destinationId, appKey: app_key, filters, count: d.welcome_count, backfill: d.backfill });
    }
  }
}

/** What makes two connections the same destination: the platform and its webhook URL or address (keyed hash). */
export const destinationTargetHash = (platform: string, target: string) => secretHash('destination-target', `${platform}\n${target}`);

function targetOf(input: NewDestination): { target: string; hint: string; warning: string | null } {
  return input.platform === 'email'
    ? { target: input.email, hint: addressHint(input.email), warning: null }
    : { target: input.url, hint: redactUrl(input.url), warning: input.warning ?? null };
}

/** The filters a new destination starts with: what was asked, and the storefronts it watches as its countries. */
function initialFilters(input: NewDestination): DestinationFilters {
  const filters = normalizeFilters(input.filters ?? {});
  // Watching a storefront means wanting that storefront's reviews, even if the app is watched elsewhere too.
  if (filters.countries || !input.apps.every((a) => a.store === 'apple_app_store')) return filters;
  return { ...filters, countries: [...storefrontsFor(input.country)].sort() };
}

/**
 * Connects a destination to one or more apps. Idempotent: the same webhook (or address) on the same platform for an app
 * it already watches returns the existing destination (re-enabled if it was disabled, unless its address unsubscribed:
 * 409) instead of making a second.
 * A new subscription gets a welcome: at once if the app's sources have been polled, else right after their first poll,
 * which is triggered immediately.
 */
export async function createDestination(input: NewDestination): Promise<CreatedDestination> {
  const orgId = input.orgId ?? null;
  const welcomeCount = input.welcomeCount ?? DEFAULT_WELCOME_COUNT;
  const backfill = input.backfill ?? false;
  const addressConfirmed = input.addressConfirmed ?? false;
  const { target, hint, warning } = targetOf(input);
  const targetHash = destinationTargetHash(input.platform, target);
  const keys = [...new Set(input.apps.map((a) => appKey(a)))].sort(); // sorted: locks are always taken in one order
  const filters = initialFilters(input);

  const db = await getDb();
  for (const a of input.apps) {
    if (a.title) await ensureAppRow(db, { store: a.store, appId: a.appId, title: a.title, iconUrl: a.iconUrl });
  }

  const result = await db.transaction().execute(async (trx) => {
    for (const key of keys) {
      if (!(await lockApp(trx, key))) throw badRequest(`app: ${key} is not known yet — look the app up first.`, 'unknown_app');
    }
    // Looked up within the caller's scope (its organisation, or anonymous connections only): another organisation's
    // destination with the same webhook is never returned, the caller gets its own as if it were new.
    const existing = await findConnectedDestination(trx, { targetHash, platform: input.platform, appKeys: keys, orgId });

    let id: string;
    let created = false;
    let pending = false;
    let confirmedNow = false;
    let signingSecret: string | null = null;
    // Reconnecting a URL re-enables a destination a platform had refused (the owner fixed it); an address whose owner
    // clicked "unsubscribe", for any app, only comes back through a confirmation link it receives (server/subscriptions).
    if (await isTargetUnsubscribed(trx, { targetHash, platform: input.platform })) {
      throw new HttpError(409, 'address_unsubscribed', 'This address unsubscribed from ARB e-mails; it is only signed up again after confirming a link sent to it.');
    }
    if (existing) {
      id = existing.id;
      // Still waiting for its mailbox, unless its owner is the one connecting it now.
      confirmedNow = existing.status === 'pending_confirmation' && addressConfirmed;
      pending = existing.status === 'pending_confirmation' && !confirmedNow;
      await updateDestination(trx, id, {
        ...(existing.status === 'disabled' || confirmedNow || isEnginePause(existing.status, existing.disabled_cause)
          ? { ...RUNNING_AGAIN, expires_at: anonymousExpiry(existing.org_id ?? orgId, input.platform) }
          : {}),
        ...(confirmedNow ? { confirmed_at: sql`now()` } : {}),
        ...(input.label ? { label: input.label } : {}),
        ...(input.slackTeamId ? { slack_team_id: input.slackTeamId } : {}),
        ...(input.slackChannelId ? { slack_channel_id: input.slackChannelId } : {}),
      });
    } else {
      await input.beforeInsert?.(trx);
      id = randomId('dst');
      created = true;
      if (input.platform === 'webhook') signingSecret = newSigningSecret();
      pending = input.platform === 'email' && !addressConfirmed;
      await insertDestination(trx, {
        id,
        org_id: orgId,
        platform: input.platform,
        target_enc: encryptSecret(target),
        signing_secret_enc: signingSecret ? encryptSecret(signingSecret) : null,
        target_hash: targetHash,
        target_hint: hint,
        label: input.label ?? null,
        slack_team_id: input.slackTeamId ?? null,
        slack_channel_id: input.slackChannelId ?? null,
        filters: JSON.stringify(filters),
        warning,
        welcome_count: welcomeCount,
        backfill,
        created_by_email: input.createdByEmail ?? null,
        ...(pending ? { status: 'pending_confirmation' as const, status_reason: pendingConfirmationReason(hint) } : {}),
        ...(input.platform === 'email' && !pending ? { confirmed_at: sql<Date>`now()` } : {}),
        expires_at: anonymousExpiry(orgId, input.platform),
      });
    }

    const subscribed = new Set(await destinationAppKeys(trx, id));
    const destFilters = existing ? readFilters((await getWelcomeSettings(trx, id)).filters) : filters;
    for (const a of input.apps) {
      const key = appKey(a);
      if (subscribed.has(key)) continue;
      subscribed.add(key);
      await linkDestinationApp(trx, id, key);
      const sources: SourceRow[] = [];
      for (const s of sourcesFor(a.store, input.country, input.language)) sources.push(await ensureSource(trx, { appKey: key, ...s }));
      // Reviews of this app are current once a source the destination wants has been polled — its storefront's, or the
      // store's official API (which covers every storefront, and idles the public sources): welcome now (a pending
      // e-mail destination is welcomed when its mailbox confirms, with the reviews of that moment).
      if (!pending && (sources[0].last_success_at || (await reviewsCurrentFor(trx, key, destFilters)))) {
        await queueWelcome(trx, { destinationId: id, appKey: key, filters: destFilters, count: welcomeCount, backfill });
      }
    }
    // A reconnected (or resumed) destination may need sources that went idle meanwhile.
    await activateNeededSources(trx, keys);
    if (confirmedNow) await welcomeWaitingApps(trx, id);
    // The warning it is stored with: a destination connected again keeps the one it was made with.
    return { id, created, signingSecret, warning: existing ? existing.warning : warning };
  });

  wake('poll');
  wake('deliver');
  log.info(result.created ? 'destination created' : 'destination already existed', { destinationId: result.id, platform: input.platform, apps: keys, target: hint });
  return result;
}

/**
 * Pause (stop posting, keep what is queued) or resume a destination. Resuming a disabled one re-enables it. An e-mail
 * destination waiting for its mailbox is neither: only its confirmation link starts it (409). `cause` 'plan_limit' marks a
 * pause the organisation's plan made (it resumes by itself when the plan allows it again).
 */
export async function setDestinationPaused(id: string, paused: boolean, reason = 'Paused by its owner.', cause: 'owner' | 'plan_limit' = 'owner'): Promise<void> {
  const db = await getDb();
  const updated = await updateDestination(db, id, paused ? { status: 'paused', status_reason: reason, disabled_cause: cause } : RUNNING_AGAIN, 'pending_confirmation');
  if (!updated) {
    if (!(await destinationStatusOf(db, id))) throw notFound('No such destination.');
    throw new HttpError(409, 'pending_confirmation', 'This address has not confirmed yet: reviews start when the link in its confirmation e-mail is clicked.');
  }
  if (!paused) {
    if (await activateNeededSources(db, await destinationAppKeys(db, id))) wake('poll');
    wake('deliver');
  }
}

/** What an organisation's admin may change on a destination besides pausing it (absent fields stay as they are). */
export type DestinationSettings = {
  filters?: DestinationFilters;
  /** The apps it watches (app keys of registered apps; at least one). */
  appKeys?: string[];
  /** Runs in the changing transaction after the apps' locks (as createDestination's beforeInsert): the caller's plan check. */
  beforeChange?: (trx: Transaction<Database>) => Promise<void>;
  /** Language to translate its reviews into, or null for none. Each review message carries its translation (server/ai/translate/deliveries.ts). */
  translateTo?: string | null;
  /** Whether it receives spike alerts for its apps (server/alerts). */
  spikeAlerts?: boolean;
  /** Whether it receives the weekly summary of its apps (server/insights/weekly.ts). */
  weeklySummaries?: boolean;
};

/** App Store storefronts a destination's country filter asks for (those that are storefronts), 'us' without one. */
function wantedStorefronts(filters: DestinationFilters): string[] {
  const codes = (filters.countries ?? []).filter(isStorefrontCode);
  return codes.length ? codes : [...storefrontsFor(null)];
}

/**
 * Changes a destination's filters, apps or translation language. An app added gets its sources (the storefronts its
 * country filter names, for App Store apps) and its welcome like a new connection; a storefront added to the country
 * filter starts being watched too, since wanting its reviews means watching it (wantedSources.ts). The apps' locks are
 * held while the apps change, as for a new connection, so a review is welcomed or fanned out, never neither.
 */
export async function updateDestinationSettings(id: string, settings: DestinationSettings): Promise<void> {
  const db = await getDb();
  await db.transaction().execute(async (trx) => {
    const current = await destinationAppKeys(trx, id);
    const wanted = settings.appKeys ? [...new Set(settings.appKeys)].sort() : current;
    for (const key of [...new Set([...current, ...wanted])].sort()) {
      if (!(await lockApp(trx, key))) throw badRequest(`apps: ${key} is not an app of this organisation.`, 'unknown_app');
    }
    await settings.beforeChange?.(trx);
    const filters = settings.filters ? normalizeFilters(settings.filters) : readFilters((await getWelcomeSettings(trx, id)).filters);
    await updateDestination(trx, id, {
      ...(settings.filters ? { filters: JSON.stringify(filters) } : {}),
      ...(settings.translateTo !== undefined ? { translate_to: settings.translateTo } : {}),
      ...(settings.spikeAlerts !== undefined ? { spike_alerts: settings.spikeAlerts } : {}),
      ...(settings.weeklySummaries !== undefined ? { weekly_summaries: settings.weeklySummaries } : {}),
    });
    await unlinkDestinationApps(
      trx,
      id,
      current.filter((k) => !wanted.includes(k)),
    );
    const added = wanted.filter((k) => !current.includes(k));
    for (const key of added) await linkDestinationApp(trx, id, key);
    // Sources for the apps added, and for storefronts the country filter now asks for.
    const refresh = settings.filters ? wanted : added;
    for (const key of refresh) {
      const store = key.startsWith('apple_app_store') ? 'apple_app_store' : 'google_play_store';
      if (store === 'apple_app_store') for (const country of wantedStorefronts(filters)) await ensureSource(trx, { appKey: key, kind: 'appstore_feed', country });
      else if (added.includes(key)) for (const s of sourcesFor(store, null)) await ensureSource(trx, { appKey: key, ...s });
    }
    await activateNeededSources(trx, wanted);
    if ((await destinationStatusOf(trx, id)) !== 'pending_confirmation') await welcomeWaitingApps(trx, id);
  });
  wake('poll');
  wake('deliver');
}

export type ConfirmedDestination = { id: string; appTitles: string[]; alreadyConfirmed: boolean };

/**
 * The mailbox of a pending e-mail destination said yes: it becomes active and gets its welcome with the reviews of
 * this moment (or after its app's first poll). Confirming twice changes nothing. Null when there is no such e-mail
 * destination.
 */
export async function confirmEmailDestination(id: string): Promise<ConfirmedDestination | null> {
  const db = await getDb();
  const result = await db.transaction().execute(async (trx) => {
    const keys = await destinationAppKeys(trx, id);
    for (const key of keys) await lockApp(trx, key); // the ingest's lock: a review is welcomed or fanned out, never neither
    const d = await getEmailDestination(trx, id, { forUpdate: true });
    if (!d) return null;
    const alreadyConfirmed = d.status !== 'pending_confirmation';
    if (!alreadyConfirmed) {
      await updateDestination(trx, id, { ...RUNNING_AGAIN, confirmed_at: sql`now()` });
      // Its sources were idle while nothing active wanted them (sourceDemand.ts): poll them again from now on.
      await activateNeededSources(trx, keys);
      await welcomeWaitingApps(trx, id);
    }
    return { id, appTitles: await appTitles(trx, keys), alreadyConfirmed };
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
 * What a sign-in offers as proof that anonymous connections are the person's: the address they signed in with (it
 * claims that address's e-mail destinations its mailbox confirmed) and the claim token of their browser's cookie
 * (the connections made in that browser). A typed `user_email` in a connect payload proves nothing.
 */
export type ClaimProof = { email: string; claimToken?: string | null };

async function provedBy(proof: ClaimProof) {
  return {
    connectionIds: await connectionsInClaimToken(proof.claimToken),
    confirmedAddressHash: destinationTargetHash('email', proof.email.trim().toLowerCase()),
  };
}

/** The still-anonymous connections `proof` shows to be the signing-in person's (ids), before they are claimed. */
export async function provedAnonymousConnections(proof: ClaimProof): Promise<string[]> {
  return provedConnections(await getDb(), await provedBy(proof));
}

/**
 * Someone signed in (or signed up): the anonymous connections `proof` shows to be theirs become their organisation's
 * — no expiry any more, and those paused by the engine resume, with their sources polled again. Called from the
 * sign-in path once the user and organisation exist.
 */
export async function claimAnonymousConnections(input: { orgId: string } & ClaimProof): Promise<string[]> {
  const db = await getDb();
  const { claimed, ids, appKeys } = await claimConnections(db, { orgId: input.orgId, ...(await provedBy(input)) });
  if (claimed === 0) return [];
  if (await activateNeededSources(db, appKeys)) wake('poll');
  wake('deliver');
  log.info('anonymous connections claimed', { claimed });
  return ids;
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
    const open = await openDeliveryTotals(db);
    if (!overrides.waitForRetries || open.n === 0 || Date.now() > deadline) return { sent, open: open.n };
    const next = open.next ? new Date(open.next).getTime() : Date.now() + 100;
    await new Promise((r) => setTimeout(r, Math.min(Math.max(next - Date.now(), 20), Math.max(0, deadline - Date.now()), 1000)));
  }
}
