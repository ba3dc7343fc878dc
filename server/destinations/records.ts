/**
 * A destination as the dashboard, the connect flow and its public status page read it — its state without secrets,
 * whether its first message got through — and the two things changed on it that are no engine work: a signed
 * webhook's new secret and reading an e-mail destination's address for its confirmation link. The engine
 * (server/monitor/service.ts) connects, pauses, changes and confirms destinations; rows are read through
 * server/monitor/data.ts, the one module that reads and writes them.
 */
import { getDb } from '../db/client';
import { log } from '../log';
import { decryptSecret, encryptSecret } from '../crypto';
import type { Platform } from './types';
import { newSigningSecret, SECRET_ROTATION_GRACE_HOURS } from './signing';
import type { DestinationState } from '@/shared/destinations';
import { firstDeliveryProblem, firstMessageState } from '@/shared/deliveryErrors';
import { deliveryCounts, destinationApps, getEmailDestination, getStatusRow, setSigningSecret, type DestinationStatusValue } from '../monitor/data';
import { readFilters, type DestinationFilters } from '../monitor/filters';
import { formatProblemFor } from '../monitor/formatErrors';

/** The shared fields' meaning: shared/destinations.ts DestinationState (what the status card reads). */
export type DestinationStatus = DestinationState & {
  id: string;
  platform: Platform;
  app: { app_id: string; app_store: string; title: string; icon_url: string | null } | null;
  apps: Array<{ app_id: string; app_store: string; title: string; icon_url: string | null }>;
  filters: DestinationFilters;
  created_at: string;
};

const iso = (d: Date | null) => (d ? d.toISOString() : null);

/** Whether a message got through yet ("Active" only then), and if the first attempts failed, why in words. */
export function firstMessageOf(platform: string, lastDeliveryAt: Date | null, currentError: string | null): Pick<DestinationState, 'first_message' | 'first_delivery_problem'> {
  const first_message = firstMessageState({ last_delivery_at: lastDeliveryAt, current_error: currentError });
  return { first_message, first_delivery_problem: first_message === 'failed' && currentError ? firstDeliveryProblem(currentError, platform) : null };
}

/** Everything a status page may show about a destination — no URL, no address, no org. Null when unknown. */
export async function getDestinationStatus(id: string): Promise<DestinationStatus | null> {
  const db = await getDb();
  const d = await getStatusRow(db, id);
  if (!d) return null;
  const apps = await destinationApps(db, id);
  const counts = await deliveryCounts(db, id);
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
    delivered: counts.delivered + Number(d.delivered_pruned),
    last_delivery_at: iso(d.last_delivery_at),
    last_error: currentError,
    last_error_at: currentError ? iso(d.last_error_at) : null,
    ...firstMessageOf(d.platform, d.last_delivery_at, currentError),
    parked: counts.parked,
    parked_reason: counts.parked ? counts.parked_reason : null,
    source_problem: await formatProblemFor(db, apps.map((a) => a.key)),
    confirmation_sent_at: d.status === 'pending_confirmation' ? iso(d.confirmation_sent_at) : null,
    created_at: d.created_at.toISOString(),
  };
}

/** An e-mail destination's address and status, for checking a confirmation link before using it. Null if unknown. */
export async function getEmailDestinationTarget(id: string): Promise<{ address: string; status: DestinationStatusValue } | null> {
  const db = await getDb();
  const d = await getEmailDestination(db, id);
  return d ? { address: decryptSecret(d.target_enc), status: d.status } : null;
}


/**
 * A new signing secret for a signed webhook destination. Messages sent from now on (a retry of an earlier one too)
 * are signed with it and, until `previousExpiresAt` (SECRET_ROTATION_GRACE_HOURS), with the one it replaced as well,
 * so the receiver can be given the new secret without missing a message. Null when the destination is not a signed
 * webhook.
 */
export async function rotateSigningSecret(id: string): Promise<{ secret: string; previousExpiresAt: Date } | null> {
  const secret = newSigningSecret();
  const previousExpiresAt = await setSigningSecret(await getDb(), id, encryptSecret(secret), SECRET_ROTATION_GRACE_HOURS);
  if (!previousExpiresAt) return null;
  log.info('signing secret rotated', { destinationId: id, previousExpiresAt: previousExpiresAt.toISOString() });
  return { secret, previousExpiresAt };
}
