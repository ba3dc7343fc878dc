/**
 * The review's Slack message once it has a reply: the review as it was announced, then the reply, its state and who
 * sent it, with an "Edit reply" button. Posted to the click's response_url right after a reply from Slack, and with
 * chat.update when the reply is published (server/slack/published.ts).
 */
import { formatReviewFor } from '../destinations/format';
import { appInfoOf } from '../monitor/apps';
import { slackReplyButton } from '../monitor/messages';
import { toMessageInput } from '../subscriptions/reviews';
import { REPLY_STATE_WORDS } from '@/shared/replies';
import { reviewWithApp } from './data';

export type ShownReply = { text: string; state: keyof typeof REPLY_STATE_WORDS; failure: string | null };

/** The message's `text` (for notifications) and `blocks`; null when the review is gone. */
export async function replyMessageBody(destinationId: string, reviewId: string, reply: ShownReply, by: string): Promise<{ text?: string; blocks?: unknown } | null> {
  const stored = await reviewWithApp(reviewId);
  if (!stored) return null;
  const app = appInfoOf(stored.app);
  const input = toMessageInput({ ...app, iconUrl: app.iconUrl ?? null, storeUrl: app.storeUrl ?? null }, stored.review);
  const state = reply.state === 'failed' && reply.failure ? `${REPLY_STATE_WORDS.failed}: ${reply.failure}` : REPLY_STATE_WORDS[reply.state];
  const message = formatReviewFor('slack', {
    ...input,
    replyAction: slackReplyButton(destinationId, stored.review.id),
    sentReply: { text: reply.text, by, state },
  });
  return message.kind === 'json' ? (message.body as { text?: string; blocks?: unknown }) : null;
}
