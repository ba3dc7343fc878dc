/**
 * The public API's reads, for a caller holding an organisation's `arb_` key: the organisation's apps, and one app's
 * stored reviews newest first, paged by review id (`starting_after`, as the seed product's API and its n8n node do) —
 * the same queries and the same review shape as the dashboard's inbox.
 */
import { badRequest, notFound } from '../http/errors';
import { getOrgAppCountries, listOrgApps } from '../orgApps/data';
import { reviewJson, type InboxReview } from '../reviews/inbox';
import { inboxPage, reviewPosition } from '../reviews/data';
import type { ApiKeyCaller } from '../apiKeys/caller';

export const appsOfKey = (caller: ApiKeyCaller) => listOrgApps(caller.orgId);

export type ReviewsQuery = {
  limit: number;
  startingAfter?: string;
  countries?: string[];
  ratings?: number[];
  /** Inclusive bounds on content_updated_at. */
  from?: Date;
  to?: Date;
};

/** One page of the app's reviews; 404 for an app outside the key's organisation, 400 for an unknown starting_after. */
export async function reviewsOfKey(caller: ApiKeyCaller, appKey: string, q: ReviewsQuery): Promise<{ data: InboxReview[]; has_more: boolean }> {
  if (!(await getOrgAppCountries(caller.orgId, appKey))) throw notFound(`${appKey} is not an app of this API key's organisation. GET /api/v1/apps lists its apps.`);
  const after = q.startingAfter ? await reviewPosition(appKey, q.startingAfter) : undefined;
  if (after === null) throw badRequest(`starting_after: ${appKey} has no review ${q.startingAfter}. Pass the id of the last review of the previous page.`);
  const rows = await inboxPage({
    appKeys: [appKey],
    countries: q.countries,
    ratings: q.ratings,
    from: q.from,
    // The inbox's upper bound is exclusive; the API's `to` includes its second.
    to: q.to ? new Date(q.to.getTime() + 1000) : undefined,
    after,
    limit: q.limit + 1,
    orgId: caller.orgId,
  });
  return { data: rows.slice(0, q.limit).map(reviewJson), has_more: rows.length > q.limit };
}
