/**
 * Per-destination pacing at each platform's pace, as a GCRA (generic cell rate algorithm): one timestamp per
 * destination — the "theoretical arrival time" (TAT) — stored in destinations.pace_tat so the pace holds across
 * workers and restarts. A send at `now` conforms when now >= TAT − tolerance; it then moves TAT to max(TAT, now) +
 * interval. `burst` messages can go back to back, after which they are spaced `interval` apart.
 *
 * On top of this the worker honours what the platform tells it: 429 Retry-After (or Discord's body retry_after) and
 * Discord's X-RateLimit-Remaining / X-RateLimit-Reset-After.
 */
import type { Platform } from './types';

export type Pace = { intervalMs: number; burst: number };

/** From chat-platforms.md: Slack ~1/s with short bursts; Teams ≤4/s; Discord 5 per 2 s per webhook; Mattermost
 * default 10/s (admin-set); Webex undocumented, kept gentle; e-mail goes through our own SMTP relay. */
export const PLATFORM_PACE: Record<Platform, Pace> = {
  slack: { intervalMs: 1000, burst: 3 },
  msteams: { intervalMs: 250, burst: 4 },
  discord: { intervalMs: 400, burst: 5 },
  mattermost: { intervalMs: 100, burst: 10 },
  webex: { intervalMs: 1000, burst: 3 },
  email: { intervalMs: 200, burst: 5 },
  // A program, not a chat: no published limit, so Mattermost's default pace; its 429s are honoured like any other.
  webhook: { intervalMs: 100, burst: 10 },
};

export const NO_PACE: Pace = { intervalMs: 0, burst: 1 };

export function paceFor(platform: Platform, mode: 'platform' | 'off'): Pace {
  return mode === 'off' ? NO_PACE : PLATFORM_PACE[platform];
}

/** Earliest time (ms) the next message may go, given the stored TAT (ms, or null when nothing was sent yet). */
export function nextAllowedAt(tat: number | null, pace: Pace): number {
  if (tat === null) return 0;
  return tat - (pace.burst - 1) * pace.intervalMs;
}

/** The TAT after sending one message at `now`. */
export function afterSend(tat: number | null, now: number, pace: Pace): number {
  return Math.max(tat ?? now, now) + pace.intervalMs;
}
