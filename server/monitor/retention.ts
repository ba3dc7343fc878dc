/**
 * How long the review outbox keeps what it sent, and what that means for repeats (server/monitor/README.md,
 * "Retention"). A delivery row is also the key that stops the same message from being queued twice (its unique
 * indexes), so a row may only go once nothing can queue that message again:
 *  - a review's 'new' message is queued by the poll that first stores the review (once: the review row stays) and by
 *    a welcome of its app to the destination — which happens again only if the app is removed from the destination
 *    and added back. Such a later welcome picks only reviews stored within `rewelcomeWindowMs()`, a day inside the
 *    retention: any delivery of them is younger than the retention, so still there;
 *  - an edit's 'updated' message names the review's new version, which never comes back;
 *  - a spike alert is queued when its episode opens, once; a weekly summary for a week after its week, at most
 *    (hence the 14-day floor of DELIVERY_RETENTION_DAYS);
 *  - a welcome intro is the key of "this app was welcomed to this destination": kept for good (one per destination
 *    and app).
 */
import { env } from '../env';

const DAY_MS = 24 * 3600_000;

/** A delivered message older than this is pruned (DELIVERY_RETENTION_DAYS). */
export function deliveryRetentionMs(): number {
  return env().DELIVERY_RETENTION_DAYS * DAY_MS;
}

/**
 * A welcome of an app already welcomed to the destination picks reviews first stored within this long: a day less
 * than the retention, so a prune running meanwhile (its own clock a little later) cannot have taken their rows.
 */
export function rewelcomeWindowMs(): number {
  return deliveryRetentionMs() - DAY_MS;
}
