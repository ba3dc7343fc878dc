/**
 * Which reviews a destination wants. Pure: the fan-out and the welcome both ask `matchesFilters` so a destination
 * never gets a review its filters exclude, whichever path the review takes.
 */
import { z } from 'zod';

export const destinationFiltersSchema = z
  .object({
    /** Star ratings to post (1..5); empty or absent = all. */
    ratings: z.array(z.number().int().min(1).max(5)).max(5).optional(),
    /** Countries (ISO alpha-2, lower case); a review whose store gives no country (Google Play) always passes. */
    countries: z.array(z.string().regex(/^[a-z]{2}$/, 'use two-letter country codes like "us"')).max(300).optional(),
    /** Review languages (e.g. "en"); a review without a known language always passes. */
    languages: z.array(z.string().min(2).max(12)).max(100).optional(),
    /** Post only reviews whose title or text contains one of these words (case-insensitive). */
    keywords: z.array(z.string().trim().min(1).max(100)).max(50).optional(),
    /** Post only reviews with one of these tags (tag ids of the destination's organisation): each is delivered when it is tagged (server/workflow). */
    tags: z.array(z.string().min(1).max(64)).max(50).optional(),
  })
  .strict();

export type DestinationFilters = z.infer<typeof destinationFiltersSchema>;

/** `tags`: the review's tag ids, when the caller knows them (a review is stored untagged: see matchesFilters). */
export type FilterableReview = { rating: number; country: string | null; language: string | null; title: string | null; body: string; tags?: readonly string[] };

/** Filters as stored (jsonb): tolerate an old or hand-edited row rather than crash the fan-out. */
export function readFilters(raw: unknown): DestinationFilters {
  const parsed = destinationFiltersSchema.safeParse(typeof raw === 'string' ? JSON.parse(raw) : (raw ?? {}));
  return parsed.success ? parsed.data : {};
}

export function normalizeFilters(filters: DestinationFilters): DestinationFilters {
  const out: DestinationFilters = {};
  if (filters.ratings?.length) out.ratings = [...new Set(filters.ratings)].sort();
  if (filters.countries?.length) out.countries = [...new Set(filters.countries.map((c) => c.toLowerCase()))].sort();
  if (filters.languages?.length) out.languages = [...new Set(filters.languages.map((l) => l.toLowerCase()))].sort();
  if (filters.keywords?.length) out.keywords = [...new Set(filters.keywords.map((k) => k.trim()).filter(Boolean))];
  if (filters.tags?.length) out.tags = [...new Set(filters.tags)].sort();
  return out;
}

function languageMatches(wanted: string[], language: string): boolean {
  const lang = language.toLowerCase();
  return wanted.some((w) => lang === w || lang.startsWith(`${w}-`) || w.startsWith(`${lang}-`));
}

/**
 * A destination filtered by tags gets a review only once it has one of them: a new review (stored untagged) waits for
 * its tag, and server/workflow/data.ts (addTags) queues its delivery then.
 */
export function matchesFilters(filters: DestinationFilters, review: FilterableReview): boolean {
  if (filters.tags?.length && !review.tags?.some((t) => filters.tags!.includes(t))) return false;
  if (filters.ratings?.length && !filters.ratings.includes(review.rating)) return false;
  if (filters.countries?.length && review.country && !filters.countries.includes(review.country.toLowerCase())) return false;
  if (filters.languages?.length && review.language && !languageMatches(filters.languages, review.language)) return false;
  if (filters.keywords?.length) {
    const text = `${review.title ?? ''}\n${review.body}`.toLocaleLowerCase();
    if (!filters.keywords.some((k) => text.includes(k.toLocaleLowerCase()))) return false;
  }
  return true;
}
