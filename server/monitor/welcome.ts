/**
 * The welcome a destination gets when it starts watching an app: one intro message naming the app, then the last few
 * reviews (default 5, filters applied, oldest first) — never the whole history unless a backfill was asked for.
 *
 * Always called inside a transaction that holds the app's lock (apps.ts lockApp), the same lock the ingest takes, so a
 * review is either already stored when the welcome picks "the last N" or stored after the destination exists and then
 * fanned out to it — never neither. The recent reviews are queued as ordinary 'new' deliveries, so the unique
 * constraint also keeps a review from arriving both in the welcome and as new. An app welcomed to the destination
 * before (its intro is kept for good) is welcomed again only with reviews younger than the delivery retention, whose
 * delivery rows, if any, are still there to stop a repeat (retention.ts).
 */
import { sql, type Transaction } from 'kysely';
import type { Database } from '../db/types';
import { msInterval } from '../db/interval';
import { rewelcomeWindowMs } from './retention';
import { markAppWelcomed } from './data';
import { matchesFilters, type DestinationFilters } from './filters';
import type { SourceRow } from './sources';

/** How far back a welcome with filters looks for matching reviews before settling for fewer. */
const WELCOME_SCAN_LIMIT = 2000;
const PAGE = 200;

/** Whether a destination with these filters wants the reviews of a source of this storefront ('' = every storefront). */
export function wantsStorefront(filters: DestinationFilters, country: string | null): boolean {
  return !country || !filters.countries?.length || filters.countries.includes(country);
}

/**
 * The storefronts of the app's other active sources that have not been read yet: neither polled successfully nor
 * failed. A new connection to "All countries" makes 40 sources at once, polled side by side; welcoming after the first
 * one done (a storefront with no reviews, say) would send an intro with nothing under it and leave the reviews the
 * other storefronts bring as history. Read under the app's lock: a source finishing meanwhile committed first.
 */
export async function unreadStorefronts(trx: Transaction<Database>, source: Pick<SourceRow, 'id' | 'app_key'>): Promise<string[]> {
  const rows = await trx
    .selectFrom('monitored_sources')
    .select('country')
    .where('app_key', '=', source.app_key)
    .where('id', '<>', source.id)
    .where('status', '=', 'active')
    .where('last_success_at', 'is', null)
    .where('failure_count', '=', 0)
    .execute();
  return rows.map((r) => r.country ?? '');
}

/**
 * A waiting welcome goes out after a poll (or the first failure) of a source whose reviews the destination wants, once
 * no other storefront it wants is still unread (`unread`, from unreadStorefronts): so it picks its last reviews from
 * every storefront's, whichever finished first.
 */
export function welcomeDueAfter(filters: DestinationFilters, source: Pick<SourceRow, 'country'>, unread: readonly string[]): boolean {
  return wantsStorefront(filters, source.country) && !unread.some((c) => wantsStorefront(filters, c));
}

export type WelcomeRequest = { destinationId: string; appKey: string; filters: DestinationFilters; count: number; backfill: boolean };

/** Queues the intro + recent reviews and marks the subscription welcomed. Returns how many reviews were queued. */
export async function queueWelcome(trx: Transaction<Database>, w: WelcomeRequest): Promise<number> {
  const intro = await trx
    .insertInto('deliveries')
    .values({ destination_id: w.destinationId, app_key: w.appKey, review_id: null, kind: 'welcome' })
    .onConflict((oc) => oc.doNothing())
    .executeTakeFirst();
  // The intro was there already: the app was welcomed to this destination before (removed and added again). The
  // delivered messages of that time may have been pruned (housekeeping.ts), and with them what stops a review from
  // being queued for it twice, so this welcome picks only among reviews stored since the prunable ones were made.
  const rewelcome = Number(intro.numInsertedOrUpdatedRows ?? 0) === 0;

  const wanted = w.backfill ? Number.POSITIVE_INFINITY : Math.max(0, w.count);
  const chosen: number[] = [];
  let offset = 0;
  while (chosen.length < wanted && (w.backfill || offset < WELCOME_SCAN_LIMIT)) {
    const page = await trx
      .selectFrom('reviews')
      .select(['id', 'rating', 'country', 'language', 'title', 'body'])
      .where('app_key', '=', w.appKey)
      .$if(rewelcome, (q) => q.where('first_seen_at', '>=', sql<Date>`now() - ${msInterval(rewelcomeWindowMs())}`))
      .orderBy('updated_at', 'desc')
      .orderBy('id', 'desc')
      .limit(PAGE)
      .offset(offset)
      .execute();
    for (const r of page) {
      if (chosen.length >= wanted) break;
      if (matchesFilters(w.filters, r)) chosen.push(r.id);
    }
    if (page.length < PAGE) break;
    offset += PAGE;
  }
  chosen.reverse(); // oldest first, so the channel reads in order
  for (let i = 0; i < chosen.length; i += 1000) {
    await trx
      .insertInto('deliveries')
      .values(chosen.slice(i, i + 1000).map((id) => ({ destination_id: w.destinationId, app_key: w.appKey, review_id: id, kind: 'new' as const })))
      .onConflict((oc) => oc.doNothing())
      .execute();
  }
  await markAppWelcomed(trx, w.destinationId, w.appKey);
  return chosen.length;
}
