/**
 * The Zendesk outbox: every few seconds, the tickets queued (asked for, or waiting after a 429 or a 5xx) are created,
 * and the notes owed about reviews' edits are added; once a day's worth, the webhook events kept against replays are
 * pruned. Once per period across all worker processes (server/periodic.ts); each ticket is also held by its own lease
 * while it is created, so overlapping runs never create one twice.
 */
import { periodicJob } from '../periodic';
import { pruneEvents } from './data';
import { runDueTickets } from './tickets';

export const ZENDESK_OUTBOX_EVERY_MS = 5_000;
/** Events are kept a day: a signature is only taken within five minutes of its timestamp. */
const EVENTS_KEPT_MS = 24 * 3600_000;

export const zendeskOutboxJob = periodicJob({
  name: 'zendesk-outbox',
  everyMs: ZENDESK_OUTBOX_EVERY_MS,
  run: async () => {
    await runDueTickets();
    await pruneEvents(EVENTS_KEPT_MS);
  },
});
