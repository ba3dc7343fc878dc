/**
 * An organisation's destinations as its dashboard sees them: list them with their state in plain words (what is wrong
 * and how to fix it), change them (pause/resume, filters, apps, translation language, spike alerts), delete them, and send one a
 * test message through the same formatter and sender as reviews. Every call is scoped to the caller's organisation: a
 * destination of another organisation is not found (404). Members read; admins change (the endpoints check roles).
 * Every change is recorded in the organisation's audit log.
 */
import { ownTagIds } from '../workflow/data';
import { getDb } from '../db/client';
import { decryptSecret } from '../crypto';
import { HttpError, notFound } from '../http/errors';
import { enforceRateLimit, type RateLimitRule } from '../http/rateLimit';
import { log } from '../log';
import { deliver, PLATFORM_NAMES, prepareTarget } from '../destinations/deliver';
import { defaultWebhookSender } from '../destinations/send';
import type { Platform } from '../destinations/types';
import { appsOfDestinations, deleteOrgDestination, getDestinationTarget, getOrgDestinationRow, listOrgDestinationRows, orgDestinationAppKeys } from '../monitor/data';
import { readFilters, type DestinationFilters } from '../monitor/filters';
import { buildTestMessage } from '../monitor/messages';
import { setDestinationPaused, updateDestinationSettings } from '../monitor/service';
import { firstMessageOf, rotateSigningSecret } from '../destinations/records';
import { newMessageId } from '../destinations/messageIds';
import { parkedMessagesOf, type ParkedMessages } from '../monitor/parked';
import type { FirstMessage } from '@/shared/deliveryErrors';
import type { AppStore } from '../sources/types';
import type { DisabledCause } from '../db/types';
import { recordAudit } from '../org/data';
import { orgAppKeys } from '../orgApps/data';
import type { Membership } from '../org/membership';
import { fixFor } from './status';
import { assertAppsWithinLimit, assertWithinLimit, lockedAppsCheck } from '../plans/limits';
import { assertFeature } from '../plans/features';

export const TEST_MESSAGE_LIMITS = {
  /** A test is for checking a channel, not for posting into it: a few per destination… */
  perDestination: { name: 'destination-test:dst', limit: 5, windowSeconds: 600 } satisfies RateLimitRule,
  /** …and a bound per organisation, so a script cannot turn the button into a spam cannon. */
  perOrg: { name: 'destination-test:org', limit: 30, windowSeconds: 3600 } satisfies RateLimitRule,
};

export type OrgDestinationApp = { app_key: string; app_id: string; app_store: AppStore; title: string; icon_url: string | null };

export type OrgDestination = {
  id: string;
  platform: Platform;
  platform_name: string;
  label: string | null;
  target: string;
  apps: OrgDestinationApp[];
  filters: DestinationFilters;
  translate_to: string | null;
  /** Whether spike alerts for its apps are posted here too. */
  spike_alerts: boolean;
  /** Whether the weekly summary of its apps is posted here (plan feature `summaries`). */
  weekly_summaries: boolean;
  status: 'active' | 'paused' | 'disabled' | 'pending_confirmation';
  status_reason: string | null;
  /** Who or what stopped it, as a value (null while active or pending). */
  cause: DisabledCause | null;
  fix: string | null;
  warning: string | null;
  last_delivery_at: string | null;
  last_error: string | null;
  last_error_at: string | null;
  /** Whether a message got through yet, and if the first attempts failed, why in words (shared/deliveryErrors.ts). */
  first_message: FirstMessage;
  first_delivery_problem: string | null;
  /** Messages set aside after the worker stopped while sending each of them several times in a row (deliveryWorker.ts). */
  parked: number;
  parked_reason: string | null;
  created_at: string;
};

export type DestinationChange = { paused?: boolean; filters?: DestinationFilters; apps?: string[]; translate_to?: string | null; spike_alerts?: boolean; weekly_summaries?: boolean };

export type TestResult = { ok: boolean; status: number; message: string };

const iso = (d: Date | null) => (d ? new Date(d).toISOString() : null);
type Row = NonNullable<Awaited<ReturnType<typeof getOrgDestinationRow>>>;
type AppLink = Awaited<ReturnType<typeof appsOfDestinations>>[number];

function toJson(d: Row, apps: AppLink[], parked: ParkedMessages): OrgDestination {
  const platform = d.platform as Platform;
  // An error older than the last successful delivery is history, not the current state (as on the public status).
  const current = d.last_error && (!d.last_delivery_at || (d.last_error_at && d.last_error_at > d.last_delivery_at)) ? d.last_error : null;
  return {
    id: d.id,
    platform,
    platform_name: PLATFORM_NAMES[platform] ?? d.platform,
    label: d.label,
    target: d.target_hint,
    apps: apps
      .filter((a) => a.destination_id === d.id)
      .map((a) => ({ app_key: a.key, app_id: a.app_id, app_store: a.store as AppStore, title: a.title, icon_url: a.icon_url })),
    filters: readFilters(d.filters),
    translate_to: d.translate_to,
    spike_alerts: d.spike_alerts,
    weekly_summaries: d.weekly_summaries,
    status: d.status,
    status_reason: d.status_reason,
    cause: d.disabled_cause,
    fix: fixFor({ status: d.status, cause: d.disabled_cause, platform, target: d.target_hint }),
    warning: d.warning,
    last_delivery_at: iso(d.last_delivery_at),
    last_error: current,
    last_error_at: current ? iso(d.last_error_at) : null,
    ...firstMessageOf(platform, d.last_delivery_at, current),
    parked: parked.get(d.id)?.count ?? 0,
    parked_reason: parked.get(d.id)?.reason ?? null,
    created_at: iso(d.created_at)!,
  };
}

export async function listDestinations(m: Membership): Promise<OrgDestination[]> {
  const db = await getDb();
  const rows = await listOrgDestinationRows(db, m.orgId);
  const apps = await appsOfDestinations(
    db,
    rows.map((r) => r.id),
  );
  const parked = await parkedMessagesOf(
    db,
    rows.map((r) => r.id),
  );
  return rows.map((r) => toJson(r, apps, parked));
}

async function destinationOf(m: Membership, id: string): Promise<OrgDestination> {
  const db = await getDb();
  const row = await getOrgDestinationRow(db, m.orgId, id);
  if (!row) throw notFound('Your organisation has no destination with this id. It may have been deleted.');
  return toJson(row, await appsOfDestinations(db, [id]), await parkedMessagesOf(db, [id]));
}

/**
 * The apps this organisation has: those its destinations watch. An admin can move a destination between them, never
 * onto an app the organisation does not follow.
 */
/** The apps a destination of the organisation may post: its apps (the Apps page) and those its destinations post. */
async function appsOfOrganisation(orgId: string): Promise<Set<string>> {
  const [added, posted] = await Promise.all([orgAppKeys(orgId), orgDestinationAppKeys(await getDb(), orgId)]);
  return new Set([...added, ...posted]);
}

const actorOf = (m: Membership) => ({ userId: m.userId, email: m.email });
const nameOf = (d: OrgDestination) => `${d.platform_name} ${d.label ?? d.target}`;

export async function changeDestination(m: Membership, id: string, change: DestinationChange): Promise<OrgDestination> {
  const before = await destinationOf(m, id);
  if (change.apps) {
    const known = await appsOfOrganisation(m.orgId);
    const unknown = change.apps.find((k) => !known.has(k));
    if (unknown) throw new HttpError(400, 'unknown_app', `apps: ${unknown} is not an app of your organisation.`);
  }
  if (change.filters?.tags?.length) {
    const own = new Set(await ownTagIds(m.orgId, change.filters.tags));
    const unknown = change.filters.tags.find((t) => !own.has(t));
    if (unknown) throw new HttpError(400, 'unknown_tag', `filters.tags: ${unknown} is not a tag of your organisation.`);
  }
  if (change.paused === false && before.cause === 'unsubscribed') {
    throw new HttpError(409, 'address_unsubscribed', 'The recipient unsubscribed from these e-mails: only they can sign up again, from a confirmation link sent to them.');
  }
  if (change.paused === false && before.status === 'paused') await assertWithinLimit(m.orgId, 'channels');
  // The apps it will post count against the plan's apps once it delivers (an app no other channel or the Apps page
  // watches takes a place): checked now, and a change of apps again with the organisation's row held.
  const delivering = change.paused === false || (change.paused === undefined && (before.status === 'active' || before.status === 'pending_confirmation'));
  const appsAfter = change.apps ?? before.apps.map((a) => a.app_key);
  if (delivering && (change.apps || before.status === 'paused')) await assertAppsWithinLimit(m.orgId, appsAfter, { destination: id });
  // Turning weekly summaries on needs the plan's summaries (402 naming the plan); turning them off never does.
  if (change.weekly_summaries) await assertFeature(m.orgId, 'summaries');
  if (change.filters || change.apps || change.translate_to !== undefined || change.spike_alerts !== undefined || change.weekly_summaries !== undefined) {
    await updateDestinationSettings(id, {
      filters: change.filters,
      appKeys: change.apps,
      ...(delivering && change.apps ? { beforeChange: lockedAppsCheck(m.orgId, appsAfter, { destination: id }) } : {}),
      translateTo: change.translate_to,
      spikeAlerts: change.spike_alerts,
      weeklySummaries: change.weekly_summaries,
    });
  }
  if (change.paused !== undefined && (change.paused ? before.status !== 'paused' : before.status !== 'active')) {
    await setDestinationPaused(id, change.paused, 'Paused from the dashboard.');
  }
  const after = await destinationOf(m, id);
  const details: Record<string, unknown> = {};
  if (change.filters) details.filters = after.filters;
  if (change.apps) details.apps = after.apps.map((a) => a.app_key);
  if (change.translate_to !== undefined) details.translate_to = after.translate_to;
  if (change.spike_alerts !== undefined) details.spike_alerts = after.spike_alerts;
  if (change.weekly_summaries !== undefined) details.weekly_summaries = after.weekly_summaries;
  if (Object.keys(details).length) await recordAudit({ orgId: m.orgId, actor: actorOf(m), action: 'destination.updated', target: nameOf(after), details });
  if (after.status !== before.status && change.paused !== undefined) {
    await recordAudit({ orgId: m.orgId, actor: actorOf(m), action: change.paused ? 'destination.paused' : 'destination.resumed', target: nameOf(after), details: { id } });
  }
  return after;
}

export async function removeDestination(m: Membership, id: string): Promise<void> {
  const d = await destinationOf(m, id);
  if (!(await deleteOrgDestination(await getDb(), m.orgId, id))) throw notFound('Your organisation has no destination with this id. It may have been deleted.');
  await recordAudit({ orgId: m.orgId, actor: actorOf(m), action: 'destination.deleted', target: nameOf(d), details: { id, platform: d.platform } });
  log.info('destination deleted from the dashboard', { destinationId: id });
}

/**
 * Sends a test message now, outside the queue, through the review path (formatter of the platform, the SSRF-guarded
 * sender or the mail sender) and says what the platform answered. Nothing about the destination changes: a failed
 * test neither disables nor pauses it. An address that has not confirmed yet gets nothing (409).
 */
export async function sendTestMessage(m: Membership, id: string): Promise<TestResult> {
  const d = await destinationOf(m, id);
  if (d.status === 'pending_confirmation') {
    throw new HttpError(409, 'pending_confirmation', 'This address has not confirmed yet: nothing is sent to it until the link in its confirmation e-mail is clicked.');
  }
  await enforceRateLimit(TEST_MESSAGE_LIMITS.perDestination, id, 'Several test messages were sent to this destination in the last minutes. Try again in a few minutes.');
  await enforceRateLimit(TEST_MESSAGE_LIMITS.perOrg, m.orgId, 'Your organisation sent many test messages in the last hour. Try again later.');
  const db = await getDb();
  const row = await getDestinationTarget(db, id);
  const app = (await appsOfDestinations(db, [id]))[0];
  if (!row || !app) throw notFound('This destination watches no app any more, so there is nothing to test it with.');
  const target = decryptSecret(row.target_enc);
  const message = await buildTestMessage(d.platform, target, { ...app, store: app.store as AppStore });
  const signingSecret = row.signing_secret_enc ? decryptSecret(row.signing_secret_enc) : null;
  const previousSigningSecret = row.previous_signing_secret_enc ? decryptSecret(row.previous_signing_secret_enc) : null;
  const outcome = await deliver(prepareTarget({ destinationId: id, platform: d.platform, target, signingSecret, previousSigningSecret }), message, {
    sender: defaultWebhookSender(),
    idempotencyKey: newMessageId(), // a message of its own, outside the queue
  });
  log.info('test message sent', { destinationId: id, outcome: outcome.type, status: outcome.status });
  if (outcome.type === 'delivered') {
    return { ok: true, status: outcome.status, message: `${d.platform_name} accepted the test message${d.platform === 'email' ? ` for ${d.target}` : ''}.` };
  }
  return { ok: false, status: outcome.status, message: outcome.error };
}

/**
 * A new signing secret for a signed webhook of the organisation (admins and owners), in this answer only. Messages are
 * signed with both the new and the old secret until `previous_secret_expires_at` (a day), so the receiver can be given
 * the new one without missing a message; after that, with the new one only.
 */
export async function rotateDestinationSecret(m: Membership, id: string): Promise<{ signing_secret: string; previous_secret_expires_at: string }> {
  const d = await destinationOf(m, id);
  if (d.platform !== 'webhook') throw new HttpError(400, 'not_a_webhook', `Only Webhook destinations have a signing secret; this one posts to ${d.platform_name}.`);
  const rotated = await rotateSigningSecret(id);
  if (!rotated) throw notFound('Your organisation has no destination with this id. It may have been deleted.');
  const previousUntil = rotated.previousExpiresAt.toISOString();
  await recordAudit({ orgId: m.orgId, actor: { userId: m.userId, email: m.email }, action: 'destination.secret_rotated', target: `${d.platform_name} ${d.target}`, details: { id, previous_secret_expires_at: previousUntil } });
  return { signing_secret: rotated.secret, previous_secret_expires_at: previousUntil };
}
