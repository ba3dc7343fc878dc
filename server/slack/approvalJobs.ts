/**
 * Drafts waiting for approval posted to their Slack channel (server/slack/approvalMessages.ts) when the post right after
 * the rule failed: every few seconds, once per period across worker processes; each message is claimed per attempt,
 * so overlapping runs never post one twice.
 */
import { periodicJob } from '../periodic';
import { postDueApprovalMessages } from './approvalMessages';

export const slackApprovalMessagesJob = periodicJob({
  name: 'slack-approval-messages',
  everyMs: 10_000,
  run: async () => {
    await postDueApprovalMessages();
  },
});
