/**
 * The public API's reads, for a caller holding an organisation's `arb_` key: the organisation's apps, and one app's
 * stored reviews newest first, paged by review id (`starting_after`, as the seed product's API and its n8n node do) —
 * the same queries and the same review shape as the dashboard's inbox (ISO 8601 times; the public API's endpoint
 * answers them as unix seconds, apiReview.ts). The MCP server (server/mcp) reads through the same functions, and also
 * searches all the organisation's apps at once and reads one review by its id.
 */
import { badRequest, notFound } from '../http/errors';
import { getOrgAppCountries, listOrgApps, orgAppKeys } from '../orgApps/data';
import { reviewJson, type InboxReview } from '../reviews/inbox';
import { inboxPage, reviewPosition, type InboxRow, type ReviewPosition } from '../reviews/data';
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
  /** Words to find in the title or text, as the inbox's search reads them ("a phrase", -word, or). */
  text?: string;
};

type ReviewsPage = { data: InboxReview[]; has_more: boolean };

/** One page of the app's reviews; 404 for an app outside the key's organisation, 400 for an unknown starting_after. */
export async function reviewsOfKey(caller: ApiKeyCaller, appKey: string, q: ReviewsQuery): Promise<ReviewsPage> {
  if (!(await getOrgAppCountries(caller.orgId, appKey))) throw notFound(`${appKey} is not an app of this API key's organisation. GET /api/v1/apps lists its apps.`);
  const after = q.startingAfter ? await reviewPosition(appKey, q.startingAfter) : undefined;
  if (after === null) throw badRequest(`starting_after: ${appKey} has no review ${q.startingAfter}. Pass the id of the last review of the previous page.`);
  return pageOf(caller, [appKey], after, q);
}

/** One page of the reviews of all the organisation's apps together, newest first; 400 for an unknown starting_after. */
export async function orgReviewsOfKey(caller: ApiKeyCaller, q: ReviewsQuery): Promise<ReviewsPage> {
  const appKeys = await orgAppKeys(caller.orgId);
  let after: ReviewPosition | undefined;
  if (q.startingAfter) {
    const row = await reviewAmong(caller, appKeys, q.startingAfter);
    if (!row) throw badRequest(`starting_after: this API key's organisation has no review ${q.startingAfter}. Pass the id of the last review of the previous page.`);
    after = { us: row.position_us, id: row.id };
  }
  return pageOf(caller, appKeys, after, q);
}

/** Review `reviewId` when it is a review of one of the organisation's apps; a 404 otherwise (another's, or none). */
export async function reviewOfKey(caller: ApiKeyCaller, reviewId: string): Promise<InboxReview> {
  const row = await reviewAmong(caller, await orgAppKeys(caller.orgId), reviewId);
  if (!row) throw notFound(`Review ${reviewId} is not a review of this API key's organisation's apps.`);
  return reviewJson(row);
}

/** The inbox's row of review `reviewId`, looked for only among `appKeys`. */
async function reviewAmong(caller: ApiKeyCaller, appKeys: string[], reviewId: string): Promise<InboxRow | undefined> {
  return (await inboxPage({ appKeys, reviewId, limit: 1, orgId: caller.orgId }))[0];
}

async function pageOf(caller: ApiKeyCaller, appKeys: string[], after: ReviewPosition | undefined, q: ReviewsQuery): Promise<ReviewsPage> {
  const rows = await inboxPage({
    appKeys,
    countries: q.countries,
    ratings: q.ratings,
    q: q.text,
    from: q.from,
    // The inbox's upper bound is exclusive; the API's `to` includes its second.
    to: q.to ? new Date(q.to.getTime() + 1000) : undefined,
    after,
    limit: q.limit + 1,
    orgId: caller.orgId,
  });
  return { data: rows.slice(0, q.limit).map(reviewJson), has_more: rows.length > q.limit };
}
