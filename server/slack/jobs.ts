/**
 * Review messages in Slack updated when their reply is published (server/slack/published.ts): every few seconds, once
 * per period across worker processes; each message is also taken by one statement, so overlapping runs never update
 * one twice.
 */
import { periodicJob } from '../periodic';
import { showPublishedReplies } from './published';

export const slackPublishedRepliesJob = periodicJob({
  name: 'slack-published-replies',
  everyMs: 10_000,
  run: async () => {
    await showPublishedReplies();
  },
});
