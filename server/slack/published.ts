/**
 * A review's Slack message is updated again when the reply to it is published. The reply is sent (and the message
 * updated through the click's response_url) long before the store publishes it — App Store replies wait for Apple's
 * review, and "published" is only known at the next poll or look — and a response_url expires after 30 minutes. So
 * the click keeps where the message is (channel and ts, `slack_reply_messages`), and this job updates it once the
 * review's reply is published — through the click's response_url while it lasts (it needs no scope), else with
 * chat.update (the install's bot token, scope chat:write): a reply sent from
 * Slack, or from the dashboard or the API for a review whose message had its Reply button clicked. Messages nobody
 * clicked are not known (an incoming webhook does not say where it posted) and stay as they are.
 *
 * It follows every way a reply becomes published (the poll's transaction, the outbox's look, a store that publishes at
 * once) without hooks in them: it reads the replies' state, after their transactions committed.
 */
import { env } from '../env';
import { log } from '../log';
import { publishedShowDone, publishedShowFailed, takePublishedToShow } from './data';
import { LOST_ACCESS } from './replier';
import { replyMessageBody } from './replyMessage';
import { SlackApiError, isSlackResponseUrl, postToResponseUrl, updateMessage } from './web';

/** Tries before an update Slack keeps refusing for a passing reason (no answer, rate limit, 5xx) is given up. */
const MAX_FAILURES = 5;

/** Slack's refusals that another try will not change. */
const FOR_GOOD = [...LOST_ACCESS, 'missing_scope', 'cant_update_message', 'message_not_found', 'channel_not_found', 'edit_window_closed', 'is_archived', 'invalid_blocks'];

/** Updates the messages whose review's reply was published since they last showed it; how many were updated. */
export async function showPublishedReplies(limit = 50): Promise<number> {
  let updated = 0;
  for (const m of await takePublishedToShow(limit)) {
    const l = log.child({ destinationId: m.destinationId, reviewId: m.reviewId });
    try {
      const body = await replyMessageBody(m.destinationId, m.reviewId, { text: m.text, state: 'published', failure: null }, m.by);
      const viaResponseUrl =
        !!body && !!m.responseUrl && isSlackResponseUrl(m.responseUrl, env().ALLOW_PRIVATE_WEBHOOKS) && (await postToResponseUrl(m.responseUrl, { replace_original: true, ...body }));
      if (body && !viaResponseUrl) await updateMessage(m.botToken, m.channelId, m.messageTs, body);
      await publishedShowDone(m);
      updated++;
    } catch (err) {
      const code = err instanceof SlackApiError ? err.code : 'error';
      if (FOR_GOOD.includes(code) || m.failures + 1 >= MAX_FAILURES) {
        // missing_scope: installed before chat:write was asked for; reinstalling ("Add to Slack") grants it.
        l.warn('slack message not updated with the published reply', { code, failures: m.failures + 1 });
        await publishedShowDone(m);
      } else {
        l.info('slack message update with the published reply postponed', { code });
        await publishedShowFailed(m, 30 * 2 ** m.failures);
      }
    }
  }
  return updated;
}
