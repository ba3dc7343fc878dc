/**
 * How to get a stopped destination going again, in plain words for the dashboard, by why it stopped (disabled_cause:
 * a value, so these words never depend on the reason's wording). Pure.
 */
import type { DisabledCause } from '../db/types';
import { PLATFORM_NAMES } from '../destinations/deliver';
import type { Platform } from '../destinations/types';

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
      return `Resume it once ${name} accepts messages again: the queued reviews are kept.`;
    case 'anonymous_expired':
      return 'Resume it: it belongs to your organisation now and no longer expires.';
    default:
      return 'Resume it to post new reviews again.';
  }
}
