/**
 * The replies outbox: every few seconds, the replies due for another attempt (after a 5xx, no answer, a 429 or a
 * spent allowance) are tried again. Once per period across all worker processes (server/periodic.ts); each reply is
 * also held by its own lease while it is sent, so overlapping runs never send one twice.
 */
import { periodicJob } from '../periodic';
import { runDueReplies } from './service';

export const REPLY_OUTBOX_EVERY_MS = 5_000;

export const replyOutboxJob = periodicJob({
  name: 'reply-outbox',
  everyMs: REPLY_OUTBOX_EVERY_MS,
  run: async () => {
    await runDueReplies();
  },
});
