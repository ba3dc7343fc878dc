/**
 * The public API's `from` and `to` (GET v1/apps/{appKey}/reviews), read as the seed product's n8n node sends them:
 * unix seconds (its trigger: `String(watermark + 1)`) or ISO 8601 (its Get Many: `new Date(value).toISOString()`; a
 * date alone, other offsets and no offset at all are read too — no offset is UTC, never the server's zone).
 *
 * The API answers `content_updated_at` in whole unix seconds (the second it falls in, truncated), so a bound is
 * compared with that second, never with the stored milliseconds: a review is returned when its answered second lies
 * in [from, to]. So `from` rounds up to a whole second and `to` down, and unix seconds compare exactly: a review
 * stored at 12:00:00.700 is answered as 12:00:00, `from=<that second>` includes it, `from=<that second + 1>` does
 * not — which is what the seed's trigger (watermark = the newest second it saw, then `from` = watermark + 1) needs to
 * never see a review twice.
 */

export type BoundName = 'from' | 'to';

const UNIX_SECONDS = /^\d{1,11}$/;
// yyyy-mm-dd, optionally Thh:mm[:ss[.fraction]] and Z or ±hh[:]mm. Lower-case t and z as RFC 3339 allows.
const ISO_8601 = /^(\d{4})-(\d{2})-(\d{2})(?:[Tt](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?([Zz]|[+-]\d{2}:?\d{2})?)?$/;
const DAY_MS = 86_400_000;

/** What a bad value is told: the parameter and both forms it takes. */
export const boundMessage = (name: BoundName) =>
  `${name} must be unix seconds (a whole number, e.g. 1714550400) or an ISO 8601 date or time (e.g. 2024-05-01 or 2024-05-01T00:00:00Z).`;

/**
 * The instant `s` names, in milliseconds since 1970, or null when it is neither form (or no real date: 2024-02-30,
 * 25:00). A date alone is that UTC day: its start as `from`, its last second as `to` (the whole day included).
 */
export function instantOf(s: string, name: BoundName): number | null {
  if (UNIX_SECONDS.test(s)) return Number(s) * 1000;
  const m = ISO_8601.exec(s);
  if (!m) return null;
  const [, y, mo, d, h, mi, sec, frac, zone] = m;
  const [year, month, day] = [Number(y), Number(mo), Number(d)];
  const [hour, minute, second] = [Number(h ?? 0), Number(mi ?? 0), Number(sec ?? 0)];
  if (month < 1 || month > 12 || day < 1 || hour > 23 || minute > 59 || second > 59) return null;
  const local = Date.UTC(year, month - 1, day, hour, minute, second, Number((frac ?? '').padEnd(3, '0').slice(0, 3)));
  if (new Date(local).getUTCDate() !== day) return null; // 2024-02-30 would roll over into March
  if (h === undefined) return local + (name === 'to' ? DAY_MS - 1000 : 0);
  const t = local - offsetMinutes(zone) * 60_000;
  return Number.isFinite(t) ? t : null;
}

/** `Z`, none → 0; `+02:00`, `-0530` → minutes east of UTC; an impossible offset → NaN (so the value is refused). */
function offsetMinutes(zone: string | undefined): number {
  if (!zone || zone.toUpperCase() === 'Z') return 0;
  const digits = zone.slice(1).replace(':', '');
  const [hours, minutes] = [Number(digits.slice(0, 2)), Number(digits.slice(2))];
  if (hours > 23 || minutes > 59) return NaN;
  return (zone[0] === '-' ? -1 : 1) * (hours * 60 + minutes);
}

/**
 * The whole second a bound compares with: `from` the first whole second at or after it, `to` the second it falls in
 * (the reads include all of that second). In milliseconds since 1970.
 */
export const boundSecond = (ms: number, name: BoundName): number => (name === 'from' ? Math.ceil(ms / 1000) : Math.floor(ms / 1000)) * 1000;

/** Unix seconds of a stored time, as the public API and the signed webhook answer it: the second it falls in. */
export const unixSeconds = (d: Date | string | number): number => Math.floor(new Date(d).getTime() / 1000);

/** The same for a time that may be absent: null stays null. */
export const unixSecondsOrNull = (d: Date | string | number | null | undefined): number | null => (d === null || d === undefined ? null : unixSeconds(d));
