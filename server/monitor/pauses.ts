/**
 * The reasons the engine itself pauses a destination (as opposed to its owner), in the plain words its public status
 * shows. A destination paused for one of these reasons is resumed by connecting the same webhook or address again —
 * the one thing an anonymous owner, who has no dashboard, can do.
 */
import { PLATFORM_NAMES } from '../destinations/deliver';
import type { Platform } from '../destinations/types';
import type { DisabledCause } from '../db/types';

export function rateLimitPauseReason(platform: Platform): string {
  const name = platform === 'email' ? 'The mail server' : PLATFORM_NAMES[platform];
  return `${name} answered every message with “too many requests” (HTTP 429) for over an hour, so ARB paused this connection instead of asking again and again. The queued reviews are kept: connect the same webhook again (or resume it) to carry on.`;
}

/** An anonymous connection nobody claimed runs this long (ANONYMOUS_CONNECTION_DAYS), then pauses with this reason. */
export function anonymousExpiryReason(days: number): string {
  return `This connection was made without an account and ran its ${days} days. To keep receiving reviews, sign in to ARB in the browser you connected it from (your connections are kept and resume at once), or connect again.`;
}

/** Paused by the engine (not by its owner): connecting again resumes it. */
export function isEnginePause(status: string, cause: DisabledCause | null): boolean {
  return status === 'paused' && (cause === 'rate_limited' || cause === 'anonymous_expired');
}
