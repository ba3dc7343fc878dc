/**
 * The extractive summary of an app's reviews for a period, pure: nothing in it is written by a model. Counts and the
 * rating change come from SQL (the stats' grouped rows), terms from the term counter, and the quotes are reviews of
 * the period, verbatim, each with its id. Labelled as such wherever it is shown.
 */
import { reviewText } from './appTerms';
import type { PeriodReview } from './data';
import { termSearch, type TermComparison, type TermChange } from './terms';

export const EXTRACTIVE_LABEL = 'extractive summary';

export type PeriodFigures = {
  reviews: number;
  average_rating: number | null;
  /** Reviews per star rating, 1 to 5. */
  distribution: Array<{ rating: number; reviews: number }>;
  positive: number;
  neutral: number;
  negative: number;
  /** Summaries stored before mixed and unclassified were counted have neither (their figures then say three classes). */
  mixed?: number;
  /** Reviews without a sentiment yet: with the four classes they add up to `reviews`. */
  unclassified?: number;
};

export type VersionNote = { version: string | null; reviews: number; average_rating: number | null };

export type Quote = { review_id: string; rating: number; text: string; version: string | null; why: string };

export type SummaryTerm = Pick<TermChange, 'term' | 'reviews' | 'previous_reviews' | 'share' | 'previous_share'> & { search: string };

export type ExtractiveContent = {
  app: { key: string; title: string; store: string };
  from: string;
  to: string;
  previous: { from: string; to: string };
  figures: PeriodFigures;
  previous_figures: PeriodFigures;
  /** Average now minus average before, two decimals; null when either has no reviews. */
  rating_change: number | null;
  versions: VersionNote[];
  /** The previous period's versions (summaries stored before this was kept have none). */
  previous_versions?: VersionNote[];
  terms: { rising: SummaryTerm[]; falling: SummaryTerm[]; top: SummaryTerm[] };
  quotes: Quote[];
};

const TERMS_SHOWN = 5;
const QUOTES = 6;
const QUOTE_CHARS = 280;
/** A quote reads best at about this length: long enough to say something, short enough to read at a glance. */
const QUOTE_IDEAL_CHARS = 160;

const termOf = (t: TermChange): SummaryTerm => ({
  term: t.term,
  reviews: t.reviews,
  previous_reviews: t.previous_reviews,
  share: t.share,
  previous_share: t.previous_share,
  search: termSearch(t.term, t.forms),
});

export const quoteText = (r: Pick<PeriodReview, 'title' | 'body'>) => {
  const text = reviewText(r).replace(/\s+/g, ' ').trim();
  // Cut between characters, never inside one: half an emoji is a lone surrogate, which the summaries' jsonb refuses.
  return text.length > QUOTE_CHARS ? `${text.slice(0, QUOTE_CHARS - 1).replace(/[\uD800-\uDBFF]$/, '').trimEnd()}…` : text;
};

/**
 * Reviews that stand for the period: for each rising term, then each most-mentioned term, the review using it whose
 * length is nearest a readable quote; then the newest 1–2★ and 5★ reviews not quoted yet. Each says why it was picked.
 */
export function pickQuotes(rows: PeriodReview[], terms: TermComparison, max = QUOTES): Quote[] {
  const byId = new Map(rows.map((r) => [r.id, r]));
  const out: Quote[] = [];
  const taken = new Set<string>();
  const add = (r: PeriodReview | undefined, why: string) => {
    if (!r || taken.has(r.id) || out.length >= max) return;
    taken.add(r.id);
    out.push({ review_id: r.id, rating: r.rating, text: quoteText(r), version: r.app_version, why });
  };
  const closest = (ids: string[]) =>
    ids
      .map((id) => byId.get(id))
      .filter((r): r is PeriodReview => !!r && !taken.has(r.id))
      .sort((a, b) => Math.abs(quoteText(a).length - QUOTE_IDEAL_CHARS) - Math.abs(quoteText(b).length - QUOTE_IDEAL_CHARS))[0];
  for (const t of terms.rising.slice(0, 3)) add(closest(t.review_ids), `uses “${t.term}”, rising`);
  for (const t of terms.top.slice(0, 2)) add(closest(t.review_ids), `uses “${t.term}”, among the most mentioned`);
  add(rows.find((r) => r.rating <= 2 && !taken.has(r.id)), 'the newest 1–2★ review');
  add(rows.find((r) => r.rating === 5 && !taken.has(r.id)), 'the newest 5★ review');
  return out;
}

export type ExtractiveInput = Omit<ExtractiveContent, 'rating_change' | 'terms' | 'quotes'> & { comparison: TermComparison; rows: PeriodReview[] };

/**
 * One line per version of the period, against the period before: its reviews and average, "new" when the period
 * before had none of it, and the versions that had reviews before and none now. Read with the version, a change of
 * the rating says whether a release is behind it.
 */
export function versionNotes(c: Pick<ExtractiveContent, 'versions' | 'previous_versions'>): string[] {
  const before = new Map((c.previous_versions ?? []).map((v) => [v.version ?? '', v]));
  const now = new Set(c.versions.map((v) => v.version ?? ''));
  const lines = c.versions.map((v) => {
    const was = before.get(v.version ?? '');
    const then = c.previous_versions === undefined ? '' : was ? ` (${was.reviews} reviews, average ${stars(was.average_rating)} the period before)` : ' (new: none the period before)';
    return `Version ${v.version ?? 'unknown'}: ${v.reviews} reviews, average ${stars(v.average_rating)}${then}.`;
  });
  for (const v of c.previous_versions ?? []) if (!now.has(v.version ?? '')) lines.push(`Version ${v.version ?? 'unknown'}: no reviews now (${v.reviews} the period before).`);
  return lines;
}

export function extractiveContent(input: ExtractiveInput): ExtractiveContent {
  const { comparison, rows, ...rest } = input;
  const now = input.figures.average_rating;
  const before = input.previous_figures.average_rating;
  return {
    ...rest,
    rating_change: now === null || before === null ? null : Math.round((now - before) * 100) / 100,
    terms: {
      rising: comparison.rising.slice(0, TERMS_SHOWN).map(termOf),
      falling: comparison.falling.slice(0, TERMS_SHOWN).map(termOf),
      top: comparison.top.slice(0, TERMS_SHOWN).map(termOf),
    },
    quotes: pickQuotes(rows, comparison),
  };
}

const stars = (n: number | null) => (n === null ? '—' : n.toFixed(2));
const signed = (n: number) => (n > 0 ? `+${n.toFixed(2)}` : n.toFixed(2));
const termLine = (list: SummaryTerm[], before: boolean) =>
  list.map((t) => (before ? `“${t.term}” (${t.previous_reviews} reviews before, ${t.reviews} now)` : `“${t.term}” (${t.reviews} reviews, ${t.previous_reviews} before)`)).join('; ');

/** "40 positive, 5 neutral, 3 mixed, 12 negative, 2 not yet classified": every review counted once, in one class. */
export function sentimentWords(f: PeriodFigures): string {
  if (f.mixed === undefined) return `${f.positive} positive, ${f.neutral} neutral, ${f.negative} negative`;
  const words = `${f.positive} positive, ${f.neutral} neutral, ${f.mixed} mixed, ${f.negative} negative`;
  return f.unclassified ? `${words}, ${f.unclassified} not yet classified` : words;
}

/** The figures, terms and versions as lines of text (the extractive summary, and the facts part of an AI summary). */
export function figureLines(c: ExtractiveContent): string[] {
  const f = c.figures;
  const lines = [
    `${f.reviews} reviews from ${c.from} to ${c.to} (${c.previous_figures.reviews} from ${c.previous.from} to ${c.previous.to}).`,
    `Average rating ${stars(f.average_rating)}${c.rating_change === null ? '' : ` (${signed(c.rating_change)} from ${stars(c.previous_figures.average_rating)})`}.`,
    `Ratings: ${[...f.distribution].reverse().map((d) => `${d.rating}★ ${d.reviews}`).join(' · ')}. Sentiment: ${sentimentWords(f)}.`,
  ];
  if (c.terms.rising.length) lines.push(`Rising: ${termLine(c.terms.rising, false)}.`);
  if (c.terms.falling.length) lines.push(`Falling: ${termLine(c.terms.falling, true)}.`);
  if (c.terms.top.length) lines.push(`Most mentioned: ${termLine(c.terms.top, false)}.`);
  if (c.versions.length > 1) lines.push(`By version: ${c.versions.map((v) => `${v.version ?? 'unknown'} ${v.reviews} reviews, average ${stars(v.average_rating)}`).join('; ')}.`);
  return lines;
}

/** The extractive summary as plain text (the `text` of the API, e-mails), its quotes with their review ids. */
export function extractiveText(c: ExtractiveContent): string {
  const lines = [`${c.app.title}: ${EXTRACTIVE_LABEL} (counts, terms and quotes taken from the reviews; no language model).`, ...figureLines(c)];
  if (c.quotes.length) {
    lines.push('Quotes:');
    for (const q of c.quotes) lines.push(`- “${q.text}” (${q.rating}★, review ${q.review_id}; ${q.why})`);
  }
  return lines.join('\n');
}
