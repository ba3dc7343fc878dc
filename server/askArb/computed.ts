/**
 * Ask ARB without a language model: the questions whose answer is a computation — how many, the average, the 1–5
 * distribution, the trend, "reviews about X", the most frequent complaints — answered from the same tools the model
 * calls (tools.ts), with the filters read from the question (question.ts) and the same checked citations ([n], through
 * AnswerText). Every sentence is built from the tool's figures; nothing is written in advance. A question of any other
 * kind is answered plainly that it needs a language model, naming the variables that configure one, with an example
 * of what can be asked. Computed answers end with a line saying how they were made.
 */
import { runAskTool } from './tools';
import { AnswerText, type Answer, type AnswerInput, type AnswerOutput } from './answerText';
import { describeFilters, dontKnow, suggestQuestion } from './dontKnow';
import { daySpan, dayWords, periodWords } from './dates';
import type { AskFilters, AskReview } from './types';
import { versionNotes, type ExtractiveContent } from '../insights/extractive';

export const NEEDS_LLM = 'Other questions need AI answers, which aren’t enabled on this server.';
const COMPUTED_NOTE = `(Computed from the stored reviews without a language model. ${NEEDS_LLM})`;

type Slice = { reviews: number; average_rating: number | null };
type Result = Slice & {
  error?: string;
  filters?: { from: string | null; to: string | null };
  distribution?: Array<{ rating: number; reviews: number }>;
  series?: Array<{ start: string; reviews: number; average_rating: number | null }>;
  interval?: 'day' | 'week';
  matching_reviews?: number | string | null;
  terms?: Array<{ term: string; reviews: number; example_review_ids: string[] }>;
  by_version?: Array<Slice & { version: string | null }>;
  by_country?: Array<Slice & { country: string | null }>;
  low_rated_reviews_read?: number;
  comparisons?: Array<{ app: string; newer: VersionFigures; older: VersionFigures | null; average_rating_change?: number }>;
  summaries?: SummaryResult[];
  note?: string;
};
type VersionFigures = { version: string; reviews: number; average_rating: number | null; low_rated_share: number | null; first_review_day: string; last_review_day: string };
type SummaryResult = Pick<ExtractiveContent, 'from' | 'to' | 'previous' | 'figures' | 'previous_figures' | 'rating_change' | 'versions' | 'previous_versions' | 'terms' | 'quotes'> & { app: string };

const stars = (n: number | null) => (n === null ? 'no rating' : `${Math.round(n * 100) / 100}★`);
const count = (n: number, one: string, many = `${one}s`) => `${n.toLocaleString('en-US')} ${n === 1 ? one : many}`;
const percent = (part: number, whole: number) => (whole ? `${Math.round((part / whole) * 100)} %` : '0 %');
/** A quote as data: its own brackets cannot read as citation markers. */
const quote = (r: AskReview) => {
  const text = `${r.title ? `${r.title}. ` : ''}${r.body}`.replace(/\s+/g, ' ').replace(/\[/g, '(').replace(/\]/g, ')');
  return [...text].length > 160 ? `${[...text].slice(0, 159).join('')}…` : text;
};
const cite = (r: AskReview) => `[review:${r.id}]`;

type Computed = { lines: string[]; reviews: AskReview[] } | { nothing: true };

function toolArgs(f: AskFilters, extra: Record<string, unknown> = {}): string {
  return JSON.stringify({ ...f, ...extra });
}

/** What the filters narrow to, for the answer's first sentence: "1★ reviews from … to … in DE". */
const scopeWords = (input: AnswerInput) => {
  const apps = input.scope.apps.length === 1 ? input.scope.apps[0].title : `${input.scope.apps.length} apps`;
  return { apps, filters: describeFilters(input.parsed.filters) };
};

async function compute(input: AnswerInput): Promise<Computed | { error: string }> {
  const f = input.parsed.filters;
  const { apps, filters } = scopeWords(input);
  const topic = input.parsed.topic;
  const run = async (tool: string, extra: Record<string, unknown> = {}, filters: AskFilters = f) => {
    const r = await runAskTool(tool, toolArgs(filters, extra), input.scope);
    return { result: r.result as Result, reviews: r.reviews };
  };
  const about = topic ? ` mentioning "${topic}"` : '';

  const breakdown = input.parsed.breakdown;
  if ((breakdown === 'version' || breakdown === 'country') && input.parsed.intent !== 'reviews_about' && input.parsed.intent !== 'top_complaints') {
    const { result } = await run(breakdown === 'version' ? 'ratings_by_version' : 'ratings_by_country', topic ? { query: topic } : {});
    if (result.error) return { error: result.error };
    const rows = (breakdown === 'version' ? result.by_version : result.by_country) ?? [];
    if (!rows.length) return { lines: [`No ${filters} of ${apps}${about} are stored.`], reviews: [] };
    const name = (r: (typeof rows)[number]) => ('version' in r ? (r.version ?? 'no version') : (r.country ?? 'no country'));
    return {
      lines: [
        `By ${breakdown}, the ${count(result.reviews, 'review')} (${filters}${about}) of ${apps}, most reviewed first:`,
        ...rows.slice(0, 15).map((r) => `- ${name(r)}: ${count(r.reviews, 'review')}, averaging ${stars(r.average_rating)}`),
      ],
      reviews: [],
    };
  }
  switch (input.parsed.intent) {
    case 'count':
    case 'average': {
      const { result, reviews } = await run(input.parsed.intent === 'count' ? 'count_reviews' : 'average_rating', topic ? { query: topic } : {});
      if (result.error) return { error: result.error };
      if (!result.reviews) return { lines: [`No ${filters} of ${apps}${about} are stored.`], reviews: [] };
      const head =
        input.parsed.intent === 'count'
          ? `${apps} has ${result.reviews.toLocaleString('en-US')} ${result.reviews === 1 ? filters.replace('reviews', 'review') : filters}${about}, averaging ${stars(result.average_rating)}.`
          : `The average rating of the ${count(result.reviews, 'review')} (${filters}${about}) of ${apps} is ${stars(result.average_rating)}.`;
      const lines = [head];
      if (reviews.length) lines.push(`The newest: ${reviews.map((r) => `${r.rating}★ “${quote(r)}” ${cite(r)}`).join('; ')}.`);
      return { lines, reviews };
    }
    case 'distribution': {
      const { result } = await run('rating_distribution', topic ? { query: topic } : {});
      if (result.error) return { error: result.error };
      if (!result.reviews) return { lines: [`No ${filters} of ${apps}${about} are stored.`], reviews: [] };
      const parts = [...(result.distribution ?? [])].reverse().map((d) => `${d.rating}★ ${count(d.reviews, 'review')} (${percent(d.reviews, result.reviews)})`);
      return { lines: [`Of the ${count(result.reviews, 'review')} (${filters}${about}) of ${apps}, averaging ${stars(result.average_rating)}: ${parts.join(', ')}.`], reviews: [] };
    }
    case 'trend': {
      const span = f.from && f.to ? (Date.parse(f.to) - Date.parse(f.from)) / 86_400_000 : 30;
      const { result } = await run('rating_trend', { interval: span > 62 ? 'week' : 'day', ...(topic ? { query: topic } : {}) });
      if (result.error) return { error: result.error };
      const series = (result.series ?? []).filter((p) => p.reviews > 0);
      const range = periodWords(result.filters?.from, result.filters?.to);
      if (!series.length) return { lines: [`No ${filters.replace(` ${range}`, '')} of ${apps}${about} were stored ${range}.`], reviews: [] };
      const half = Math.floor(series.length / 2);
      const avg = (ps: typeof series) => {
        const n = ps.reduce((a, p) => a + p.reviews, 0);
        return n ? ps.reduce((a, p) => a + (p.average_rating ?? 0) * p.reviews, 0) / n : null;
      };
      const lines = [`${apps}, ${filters.includes(range) ? filters : `${filters} ${range}`}${about}: ${count(result.reviews, 'review')}, averaging ${stars(result.average_rating)}.`];
      if (half > 0) {
        const first = avg(series.slice(0, half));
        const second = avg(series.slice(half));
        if (first !== null && second !== null) {
          const moved = Math.abs(second - first) < 0.05 ? 'held steady' : second > first ? 'rose' : 'fell';
          lines.push(`The average ${moved}: ${stars(Math.round(first * 100) / 100)} in the first half of the ${result.interval}s with reviews, ${stars(Math.round(second * 100) / 100)} in the second.`);
        }
      }
      const shown = series.slice(-14);
      lines.push(`By ${result.interval}${series.length > shown.length ? ` (the last ${shown.length} with reviews)` : ''}:`, ...shown.map((p) => `- ${result.interval === 'week' ? 'week of ' : ''}${dayWords(p.start)}: ${count(p.reviews, 'review')}, ${stars(p.average_rating)}`));
      return { lines, reviews: [] };
    }
    case 'reviews_about': {
      const { result, reviews } = await run('search_reviews', { ...(topic ? { query: topic } : {}), limit: 5 });
      if (result.error) return { error: result.error };
      if (!reviews.length) return { nothing: true };
      const found = typeof result.matching_reviews === 'number' ? count(result.matching_reviews, 'review') : (result.matching_reviews ?? `${reviews.length}`);
      const head = topic ? `${found} of ${apps} (${filters}) mention "${topic}". The best matches:` : `The newest ${filters} of ${apps}:`;
      return { lines: [head, ...reviews.map((r) => `- ${r.rating}★, ${r.date.slice(0, 10)}: “${quote(r)}” ${cite(r)}`)], reviews };
    }
    case 'version_change': {
      const { result, reviews } = await run('compare_versions');
      if (result.error || !result.comparisons?.length) return { nothing: true };
      const narrowedBy = describeFilters({ ...f, from: undefined, to: undefined }).replace(/^reviews \(all time\)/, '').trim();
      const dated = (v: VersionFigures) => `reviews dated ${daySpan(v.first_review_day, v.last_review_day)}`;
      const line = (v: VersionFigures, what: string) =>
        `- ${v.version} (${what}; ${dated(v)}): ${count(v.reviews, 'review')}, averaging ${stars(v.average_rating)}${v.low_rated_share === null ? '' : `, ${Math.round(v.low_rated_share * 100)} % of them 1–2★`}`;
      const lines: string[] = [];
      const several = result.comparisons.length > 1 || input.scope.apps.length > 1;
      for (const c of result.comparisons) {
        const mine = reviews.filter((r) => c.app === input.scope.apps.find((a) => a.appStore === r.app_store && a.appId === r.app_id)?.title);
        const examples = (v: VersionFigures) => mine.filter((r) => r.version === v.version).map((r) => `${r.rating}★ “${quote(r)}” ${cite(r)}`).join('; ');
        const a = c.newer;
        const b = c.older;
        const who = several || input.scope.apps.length === 1 ? c.app : apps;
        if (!b) {
          lines.push(`${who}${narrowedBy ? ` (${narrowedBy})` : ''} has reviews of one version only, so there is no version before it to compare with:`, line(a, 'the only version'));
          if (examples(a)) lines.push(`The newest of ${a.version}: ${examples(a)}.`);
          continue;
        }
        const change = c.average_rating_change;
        lines.push(`Since the last version: ${who}'s newest version, ${a.version}, against the one before, ${b.version}${narrowedBy ? ` (${narrowedBy})` : ''}:`, line(a, 'the newest'), line(b, 'the one before'));
        if (change !== undefined) {
          lines.push(Math.abs(change) < 0.05 ? `The average held steady at ${stars(a.average_rating)}.` : `The average ${change > 0 ? 'rose' : 'fell'} by ${Math.abs(change).toFixed(2)}★, from ${stars(b.average_rating)} in ${b.version} to ${stars(a.average_rating)} in ${a.version}.`);
        }
        if (examples(a)) lines.push(`The newest reviews of ${a.version}: ${examples(a)}.`);
        if (examples(b)) lines.push(`And of ${b.version}: ${examples(b)}.`);
      }
      if (result.note) lines.push(`(${result.note}.)`);
      return { lines, reviews };
    }
    case 'summary': {
      const { result, reviews } = await run('summarize_period', {}, { apps: f.apps, from: f.from, to: f.to });
      if (result.error) return { error: result.error };
      const summaries = result.summaries ?? [];
      const byId = new Map(reviews.map((r) => [r.id, r]));
      const lines: string[] = [];
      const ignored = f.country || f.version || f.ratings?.length || f.language || f.sentiment;
      for (const c of summaries) {
        const fig = c.figures;
        const was = c.previous_figures;
        lines.push(`Summary of ${c.app}, ${periodWords(c.from, c.to)}, against the days before (${periodWords(c.previous.from, c.previous.to)}):`);
        if (!fig.reviews) {
          lines.push(`- No reviews in these days (${count(was.reviews, 'review')} the days before).`);
          continue;
        }
        const change = c.rating_change === null ? '' : `, ${c.rating_change > 0 ? '+' : ''}${c.rating_change.toFixed(2)} from ${stars(was.average_rating)}`;
        lines.push(`- ${count(fig.reviews, 'review')} (${was.reviews.toLocaleString('en-US')} the days before), averaging ${stars(fig.average_rating)}${change}.`);
        lines.push(`- Ratings: ${[...fig.distribution].reverse().map((d) => `${d.rating}★ ${d.reviews}`).join(' · ')}.`);
        const terms = (list: SummaryResult['terms']['rising'], before: boolean) => list.map((t) => (before ? `“${t.term}” (${t.previous_reviews} reviews before, ${t.reviews} now)` : `“${t.term}” (${t.reviews} reviews, ${t.previous_reviews} before)`)).join('; ');
        if (c.terms.rising.length) lines.push(`- Rising: ${terms(c.terms.rising, false)}.`);
        if (c.terms.falling.length) lines.push(`- Falling: ${terms(c.terms.falling, true)}.`);
        if (c.terms.top.length) lines.push(`- Most mentioned: ${terms(c.terms.top, false)}.`);
        for (const v of versionNotes(c).slice(0, 4)) lines.push(`- ${v}`);
        const quotes = c.quotes.filter((x) => byId.has(x.review_id));
        if (quotes.length) {
          lines.push('In their own words:');
          for (const x of quotes) lines.push(`- ${x.rating}★ “${quote(byId.get(x.review_id)!)}” ${cite(byId.get(x.review_id)!)} (${x.why})`);
        }
      }
      if (result.note) lines.push(`(${result.note}.)`);
      if (ignored) lines.push('(A summary covers all of an app’s reviews of these days: country, stars, version, language and sentiment do not narrow it.)');
      lines.push('(The extractive summary: counts, terms and quotes taken from the reviews themselves.)');
      return { lines, reviews };
    }
    case 'top_complaints': {
      const { result, reviews } = await run('top_complaints', { limit: 5 });
      if (result.error) return { error: result.error };
      const terms = result.terms ?? [];
      if (!terms.length) return { nothing: true };
      const byId = new Map(reviews.map((r) => [r.id, r]));
      const lines = [`The words and phrases used most in the ${count(result.low_rated_reviews_read ?? 0, '1–2★ review')} of ${apps} (${filters}):`];
      for (const t of terms) lines.push(`- "${t.term}": ${count(t.reviews, 'review')} ${t.example_review_ids.filter((id) => byId.has(id)).map((id) => `[review:${id}]`).join('')}`);
      return { lines, reviews };
    }
    default:
      return { error: '' };
  }
}

/** Streams a computed answer line by line through the citation check and the output guard. */
function emit(lines: string[], reviews: AskReview[], out: AnswerOutput, titles: string[]): AnswerText {
  const text = new AnswerText(new Map(reviews.map((r) => [String(r.id), r])), out, titles);
  for (const line of lines) text.push(`${line}\n`);
  text.end();
  return text;
}

export async function computedAnswer(input: AnswerInput, out: AnswerOutput): Promise<Answer> {
  const computed = await compute(input);
  if ('error' in computed) {
    const content = computed.error
      ? `I could not compute that: ${computed.error}`
      : `Without a language model I can answer how many reviews, their average rating, the rating distribution, the trend, how the newest version compares with the one before, “reviews about …”, the most frequent complaints and “summarise …” — this question is none of those. ${NEEDS_LLM} You could ask: "${suggestQuestion(input)}"`;
    out.text(content);
    return { content, citations: [], method: 'none' };
  }
  if ('nothing' in computed) return dontKnow(input, out);
  const text = emit([...computed.lines, COMPUTED_NOTE], computed.reviews, out, input.scope.apps.map((a) => a.title));
  return { content: text.shown.trim(), citations: text.citations, method: 'computed' };
}
