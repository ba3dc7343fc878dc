/**
 * The public API's review (shared/review.ts apiReviewSchema): the inbox's review (server/reviews/inbox.ts reviewJson)
 * with every time in unix seconds, as the seed product's public API answers them and its n8n node reads them (its
 * trigger keeps the newest `content_updated_at` it saw and asks for `from` = that + 1). The dashboard and the MCP tools
 * keep the ISO 8601 strings.
 */
import type { ApiReview } from '@/shared/review';
import type { InboxReview } from '../reviews/inbox';
import { unixSeconds, unixSecondsOrNull as seconds } from './timeBounds';

export function apiReviewJson(r: InboxReview): ApiReview {
  return {
    ...r,
    content_updated_at: unixSeconds(r.content_updated_at),
    written_at: seconds(r.written_at),
    replied_at: seconds(r.replied_at),
    reply: r.reply && { ...r.reply, at: unixSeconds(r.reply.at) },
  };
}
