/**
 * The polling trigger's memory, kept in the workflow's static data (n8n stores it as JSON between polls), so that a
 * review version is emitted exactly once: never repeated, never skipped.
 *
 * The API filters on `content_updated_at` in whole seconds (`from` includes its second) and answers newest first. A
 * watermark of "the newest second seen" alone would either repeat the reviews of that second (from = second) or skip
 * the ones stored later within it (from = second + 1): several reviews share a second, and the server may store one
 * after the poll that read its neighbours. So the watermark is
 *   since  the newest second emitted so far (or, before the first review, the second the trigger was activated), and
 *   seen   the versions ("<id>@<second>") emitted with a second in [since − lateSeconds, since],
 * each poll asks `from = since − lateSeconds` and drops what is in `seen`. With lateSeconds = 0 this is exactly "the
 * last second and the ids seen in it"; a larger window also catches a review the server stores late with an older
 * `content_updated_at` (a store's feed that lags), at the price of re-reading that window each poll. An edit is a new
 * version (its `content_updated_at` moves), so an edited review is emitted again, with `edited: true`.
 */

export type Watermark = { since: number; seen: string[] };

export type Review = { id: string; second: number };

const versionOf = (r: Review) => `${r.id}@${r.second}`;

/** Whether `value` is a watermark this node wrote (static data written by another version may be anything). */
export function isWatermark(value: unknown): value is Watermark {
  const w = value as Watermark | undefined;
  return typeof w?.since === 'number' && Array.isArray(w.seen) && w.seen.every((s) => typeof s === 'string');
}

/** The `from` (unix seconds, inclusive) the next poll asks for. */
export const fromOf = (w: Watermark, lateSeconds: number) => w.since - lateSeconds;

/**
 * What a poll emits from the `reviews` it read (any order), and the watermark after it. The reviews to emit come
 * oldest first, as they happened.
 */
export function advance<R extends Review>(w: Watermark, reviews: R[], lateSeconds: number): { emit: R[]; next: Watermark } {
  const seen = new Set(w.seen);
  const floor = fromOf(w, lateSeconds);
  const emit = reviews
    // `seen` grows as it goes: one version once, even if a page boundary moved under a concurrent insert and the
    // server answered it twice.
    .filter((r) => r.second >= floor && !seen.has(versionOf(r)) && seen.add(versionOf(r)))
    .sort((a, b) => a.second - b.second || compareIds(a.id, b.id));
  const since = emit.reduce((max, r) => Math.max(max, r.second), w.since);
  const keepFrom = since - lateSeconds;
  const next = [...w.seen, ...emit.map(versionOf)].filter((v) => Number(v.slice(v.lastIndexOf('@') + 1)) >= keepFrom);
  return { emit, next: { since, seen: next } };
}

/** The watermark at activation: nothing before `now` (unix seconds) is news, including what `existing` holds. */
export function start(now: number, existing: Review[], lateSeconds: number): Watermark {
  return advance({ since: now, seen: [] }, existing, lateSeconds).next;
}

/** Review ids are digits: compared as numbers, so "10" comes after "9". */
function compareIds(a: string, b: string): number {
  return a.length - b.length || (a < b ? -1 : a > b ? 1 : 0);
}
