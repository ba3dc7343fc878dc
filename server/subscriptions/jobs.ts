/**
 * Reviews by e-mail in the background (listed in server/jobs.ts):
 *  - the outbox: one-off e-mails are normally sent right after the request (kickEmailRequests); this run picks up
 *    what a stopped process or a mail-server outage left behind;
 *  - the daily digest: every minute, addresses whose digest is due get it (each address at most once a day).
 */
import { log } from '../log';
import { periodicJob } from '../periodic';
import { processEmailRequests, runDueDigests } from './service';

export const reviewEmailOutboxJob = periodicJob({
  name: 'review-email-outbox',
  everyMs: 30_000,
  run: async () => {
    const sent = await processEmailRequests();
    if (sent) log.info('review e-mails sent from the outbox', { sent });
  },
});

export const reviewEmailDigestJob = periodicJob({
  name: 'review-email-digest',
  everyMs: 60_000,
  run: async () => {
    const { sent } = await runDueDigests();
    if (sent) log.info('daily review digests sent', { sent });
  },
});
