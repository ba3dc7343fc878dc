/**
 * Store text made storable. Whatever a store sends — a review's title, body, author, version, the developer's reply,
 * an app's name — can carry characters that PostgreSQL refuses or that do not survive the trip to it:
 *  - U+0000 (NUL): refused in every text column ("invalid byte sequence for encoding UTF8: 0x00") and, as `\u0000`,
 *    in json/jsonb. One such review used to fail its poll's whole statement, and every later poll with it.
 *  - a lone surrogate (half of an emoji, U+D800–U+DFFF without its other half): not a character, so not UTF-8. The
 *    database driver silently writes U+FFFD instead, so what is stored differs from what the poll holds (a reply that
 *    compares "changed" on every poll), and jsonb refuses it outright as `\ud800`.
 * Both are removed here, at each adapter's edge, so every part of ARB sees the text as it will be stored: NUL is
 * dropped (it carries nothing a reader would see), a lone surrogate becomes U+FFFD (the replacement character: where
 * a character was lost, the reader sees that one was).
 */
import type { NormalizedReview } from './types';

const SUSPECT = /[\u0000\uD800-\uDFFF]/;
const NUL = /\u0000/g;
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/** `text` without NUL and with every lone surrogate replaced by U+FFFD (pure; text without either comes back as is). */
export function cleanText(text: string): string {
  if (!SUSPECT.test(text)) return text;
  return text.replace(NUL, '').replace(LONE_SURROGATE, '\uFFFD');
}

/** cleanText for an optional field: null and undefined stay what they are. */
export function cleanOptionalText<T extends string | null | undefined>(text: T): T {
  return (typeof text === 'string' ? cleanText(text) : text) as T;
}

/** Every string field of a plain record cleaned (one level: what an adapter builds), the rest untouched. */
export function cleanStrings<T extends object>(record: T): T {
  const out = { ...record } as Record<string, unknown>;
  for (const [key, value] of Object.entries(out)) if (typeof value === 'string') out[key] = cleanText(value);
  return out as T;
}

/**
 * A review as an adapter made it, every text field cleaned. An optional field (title, version, reply) that held nothing
 * but removed characters is null, as if the store had sent none.
 */
export function cleanReview(review: NormalizedReview): NormalizedReview {
  const clean = cleanStrings(review);
  const emptied = (before: string | null, after: string | null) => (after === '' && before !== '' ? null : after);
  return {
    ...clean,
    title: emptied(review.title, clean.title),
    appVersion: emptied(review.appVersion, clean.appVersion),
    replyText: emptied(review.replyText, clean.replyText),
  };
}
