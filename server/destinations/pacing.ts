/**
 * Per-destination pacing at each platform's pace, as a GCRA (generic cell rate algorithm): one timestamp per
 * destination — the "theoretical arrival time" (TAT) — stored in destinations.pace_tat so the pace holds across
 * workers and restarts. A send at `now` conforms when now >= TAT − tolerance; it then moves TAT to max(TAT, now) +
 * interval. `burst` messages can go back to back, after which they are spaced `interval` apart.
 *
 * On top of this the worker honours what the platform tells it: 429 Retry-After (or Discord's body retry_after) and
 * Discord's X-RateLimit-Remaining / X-RateLimit-Reset-After.
 */
import { ALL_PLATFORMS, PLATFORM_REGISTRY, type Platform } from '@/shared/platforms';

export type Pace = { intervalMs: number; burst: number };

/** Each platform's pace, from the registry (shared/platforms.ts, after chat-platforms.md). */
export const PLATFORM_PACE = Object.fromEntries(ALL_PLATFORMS.map((p) => [p, PLATFORM_REGISTRY[p].pace])) as Record<Platform, Pace>;

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
