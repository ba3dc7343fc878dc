/**
 * How to get a stopped destination going again, in plain words for the dashboard, by why it stopped (disabled_cause:
 * a value, so these words never depend on the reason's wording). Pure.
 */
import type { DisabledCause } from '../db/types';
import { PLATFORM_NAMES } from '../destinations/deliver';
import type { Platform } from '../destinations/types';

/** What the engine does with reviews that arrive during a pause: it skips them (only active destinations are fanned
 * out to, server/monitor/ingest.ts; tests/worker/pipeline.test.ts "a paused destination gets nothing"). */
export const SKIPPED_WHILE_PAUSED = 'Reviews that arrive while it is paused are skipped, not sent later.';

export function fixFor(d: { status: string; cause: DisabledCause | null; platform: Platform; target: string }): string | null {
  const name = d.platform === 'email' ? 'the mail server' : PLATFORM_NAMES[d.platform];
  if (d.status === 'pending_confirmation') return `Ask the owner of ${d.target} to click the link in the confirmation e-mail we sent.`;
  if (d.status === 'active') return null;
  switch (d.cause) {
    case 'unsubscribed':
      return 'Only the recipient can sign up again, from the link of a confirmation e-mail ("Get reviews by e-mail"). You can delete this destination.';
    case 'receiver_refused':
      return d.platform === 'email'
        ? 'Check the address, then add it again with "Add destination", or resume to try once more.'
        : `Check the webhook in ${name} (or make a new one), then add it again with "Add destination". Resume tries the saved one again.`;
    case 'rate_limited':
      return `Resume it once ${name} accepts messages again: the reviews queued before the pause are kept. ${SKIPPED_WHILE_PAUSED}`;
    case 'anonymous_expired':
      return `Resume it: it belongs to your organisation now and no longer expires. ${SKIPPED_WHILE_PAUSED}`;
    default:
      return `Resume it to post new reviews again. ${SKIPPED_WHILE_PAUSED}`;
  }
}
