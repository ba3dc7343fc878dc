/**
 * The outbox's housekeeping as periodic jobs (once per period across worker processes, server/periodic.ts): the
 * delivered messages past the retention daily, unconfirmed e-mail destinations and Slack messages nothing will update
 * hourly. What each deletes and why: housekeeping.ts, server/slack/replyMessagesPrune.ts, docs/SECURITY.md.
 */
import { getDb } from '../db/client';
import { log } from '../log';
import { periodicJob } from '../periodic';
import { pruneSlackReplyMessages } from '../slack/replyMessagesPrune';
import { pruneDeliveredMessages, pruneUnconfirmedEmailDestinations } from './housekeeping';

export const deliveryRetentionJob = periodicJob({
  name: 'delivery-retention',
  everyMs: 24 * 3600_000,
  run: async () => {
    const { deleted, statements } = await pruneDeliveredMessages(await getDb());
    if (deleted) log.info('delivered messages past the retention deleted', { deleted, statements });
  },
});

export const outboxHousekeepingJob = periodicJob({
  name: 'outbox-housekeeping',
  everyMs: 3600_000,
  run: async () => {
    const db = await getDb();
    const destinations = await pruneUnconfirmedEmailDestinations(db);
    const slackMessages = await pruneSlackReplyMessages(db);
    if (destinations || slackMessages) log.info('unconfirmed e-mail destinations and stale Slack messages deleted', { destinations, slackMessages });
  },
});
