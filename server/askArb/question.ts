/**
 * What a question asks, read without a language model: the filters it names (app, dates, version, country, star
 * ratings, language, sentiment), what it wants (a count, an average, a distribution, a trend, reviews about a topic,
 * the most frequent complaints) and its topic. Pure: the same text, scope, `now` and previous filters give the same
 * answer.
 *
 * Dates are UTC days (YYYY-MM-DD, `to` included) computed from `now`. A follow-up keeps the previous question's filters
 * and changes only what it names ("and in Germany?" keeps the dates and stars and sets the country); "all time",
 * "any country", "all versions", "all ratings" drop one.
 */
import { stopWordsFor } from '../insights/stopwords';
import { clauses } from '../insights/tokens';
import type { AskAppRef, AskFilters, AskIntent, AskScope, AskSentiment, ParsedQuestion, ParseQuestionOptions } from './types';

const DAY_MS = 86_400_000;

const MONTHS = ['january', 'february', 'march', 'april', 'may', 'june', 'july', 'august', 'september', 'october', 'november', 'december'];
const MONTH_ALT = MONTHS.map((m) => (m === 'may' ? 'may' : `${m}|${m.slice(0, 3)}${m === 'september' ? '|sept' : ''}`)).join('|');
const MONTH_RE = `(${MONTH_ALT})\\.?`;
const NUMBER_WORDS: Record<string, number> = { one: 1, two: 2, three: 3, four: 4, five: 5, six: 6, seven: 7, eight: 8, nine: 9, ten: 10, twelve: 12 };
const NUM = `(\\d+|${Object.keys(NUMBER_WORDS).join('|')})`;

const day = (t: number) => new Date(t).toISOString().slice(0, 10);
const utcDay = (y: number, m: number, d: number) => Date.UTC(y, m, d);
const toNumber = (s: string) => NUMBER_WORDS[s] ?? Number(s);
const monthIndex = (s: string) => MONTHS.findIndex((m) => m.startsWith(s.replace('.', '').slice(0, 3)));
const escapeRe = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

type DateRange = { from?: string; to?: string };

/** The most recent `month` (0–11) that has begun by `today` when no year is named. */
function monthRange(month: number, year: number | undefined, today: Date): DateRange {
  let y = year ?? today.getUTCFullYear();
  if (year === undefined && month > today.getUTCMonth()) y -= 1;
  return { from: day(utcDay(y, month, 1)), to: day(utcDay(y, month + 1, 0)) };
}

/** A day written as 2025-10-01, "1 October [2025]", "October 1[st] [2025]"; the year defaults to the latest not after today. */
function parseDay(text: string, today: Date): number | undefined {
  const iso = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text);
  if (iso) return utcDay(+iso[1], +iso[2] - 1, +iso[3]);
  const dm = new RegExp(`^(\\d{1,2})(?:st|nd|rd|th)?\\s+(?:of\\s+)?${MONTH_RE}(?:,?\\s+(\\d{4}))?$`).exec(text);
  const md = new RegExp(`^${MONTH_RE}\\s+(\\d{1,2})(?:st|nd|rd|th)?(?:,?\\s+(\\d{4}))?$`).exec(text);
  const parts = dm ? { d: +dm[1], m: monthIndex(dm[2]), y: dm[3] } : md ? { d: +md[2], m: monthIndex(md[1]), y: md[3] } : undefined;
  if (!parts || parts.m < 0 || parts.d < 1 || parts.d > 31) return undefined;
  if (parts.y) return utcDay(+parts.y, parts.m, parts.d);
  const t = utcDay(today.getUTCFullYear(), parts.m, parts.d);
  return t > today.getTime() ? utcDay(today.getUTCFullYear() - 1, parts.m, parts.d) : t;
}

const DAY_TEXT = `(\\d{4}-\\d{2}-\\d{2}|\\d{1,2}(?:st|nd|rd|th)?\\s+(?:of\\s+)?${MONTH_RE}(?:,?\\s+\\d{4})?|${MONTH_RE}\\s+\\d{1,2}(?:st|nd|rd|th)?(?:,?\\s+\\d{4})?)`;

/** The dates a question names; `all` when it asks for all time. */
function datesOf(q: string, now: Date): DateRange | 'all' | undefined {
  const today = new Date(utcDay(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()));
  const t = today.getTime();
  if (/\b(all[- ]time|ever|overall|of all time|since the beginning)\b/.test(q)) return 'all';

  const between = new RegExp(`\\b(?:between|from)\\s+${DAY_TEXT}\\s+(?:and|to|until|till|-)\\s+${DAY_TEXT}`).exec(q);
  if (between) {
    const parts = between[0].replace(/^(between|from)\s+/, '').split(/\s+(?:and|to|until|till|-)\s+/);
    const a = parseDay(parts[0], today);
    const b = parseDay(parts[1], today);
    if (a !== undefined && b !== undefined) return { from: day(Math.min(a, b)), to: day(Math.max(a, b)) };
  }
  const since = new RegExp(`\\b(?:since|after|from)\\s+${DAY_TEXT}`).exec(q);
  if (since) {
    const a = parseDay(since[0].replace(/^(since|after|from)\s+/, ''), today);
    if (a !== undefined) return { from: day(a) };
  }
  const sinceMonth = new RegExp(`\\bsince\\s+${MONTH_RE}(?:\\s+(\\d{4}))?\\b`).exec(q);
  if (sinceMonth) return { from: monthRange(monthIndex(sinceMonth[1]), sinceMonth[2] ? +sinceMonth[2] : undefined, today).from };
  const before = new RegExp(`\\b(?:before|until|till)\\s+${DAY_TEXT}`).exec(q);
  if (before) {
    const b = parseDay(before[0].replace(/^(before|until|till)\s+/, ''), today);
    if (b !== undefined) return { to: day(before[0].startsWith('before') ? b - DAY_MS : b) };
  }
  const onDay = new RegExp(`\\bon\\s+${DAY_TEXT}`).exec(q);
  if (onDay) {
    const a = parseDay(onDay[0].replace(/^on\s+/, ''), today);
    if (a !== undefined) return { from: day(a), to: day(a) };
  }

  if (/\btoday\b/.test(q)) return { from: day(t), to: day(t) };
  if (/\byesterday\b/.test(q)) return { from: day(t - DAY_MS), to: day(t - DAY_MS) };

  const lastN = new RegExp(`\\b(?:last|past|previous|recent)\\s+${NUM}\\s+(day|week|month|year)s?\\b`).exec(q);
  if (lastN) {
    const n = toNumber(lastN[1]);
    if (lastN[2] === 'day') return { from: day(t - (n - 1) * DAY_MS), to: day(t) };
    if (lastN[2] === 'week') return { from: day(t - (n * 7 - 1) * DAY_MS), to: day(t) };
    if (lastN[2] === 'month') return { from: day(utcDay(today.getUTCFullYear(), today.getUTCMonth() - n, today.getUTCDate()) + DAY_MS), to: day(t) };
    return { from: day(utcDay(today.getUTCFullYear() - n, today.getUTCMonth(), today.getUTCDate()) + DAY_MS), to: day(t) };
  }
  const sinceMonday = (today.getUTCDay() + 6) % 7;
  if (/\bthis week\b/.test(q)) return { from: day(t - sinceMonday * DAY_MS), to: day(t) };
  // "last week" is the calendar week before this one (Monday to Sunday), as the stats page's weeks are cut.
  if (/\b(last|previous) week\b/.test(q)) return { from: day(t - (sinceMonday + 7) * DAY_MS), to: day(t - (sinceMonday + 1) * DAY_MS) };
  if (/\b(past|recent) week\b/.test(q)) return { from: day(t - 6 * DAY_MS), to: day(t) };
  if (/\bthis month\b/.test(q)) return { from: day(utcDay(today.getUTCFullYear(), today.getUTCMonth(), 1)), to: day(t) };
  if (/\b(last|previous) month\b/.test(q)) return monthRange((today.getUTCMonth() + 11) % 12, today.getUTCMonth() === 0 ? today.getUTCFullYear() - 1 : today.getUTCFullYear(), today);
  if (/\b(past|recent) month\b/.test(q)) return { from: day(utcDay(today.getUTCFullYear(), today.getUTCMonth() - 1, today.getUTCDate()) + DAY_MS), to: day(t) };
  if (/\bthis year\b/.test(q)) return { from: day(utcDay(today.getUTCFullYear(), 0, 1)), to: day(t) };
  if (/\b(last|previous) year\b/.test(q)) {
    const y = today.getUTCFullYear() - 1;
    return { from: day(utcDay(y, 0, 1)), to: day(utcDay(y, 11, 31)) };
  }
  if (/\b(lately|recently)\b/.test(q)) return { from: day(t - 29 * DAY_MS), to: day(t) };

  const inMonth = new RegExp(`\\b(?:in|during|for|of)\\s+${MONTH_RE}(?:\\s+(\\d{4}))?\\b`).exec(q);
  if (inMonth) return monthRange(monthIndex(inMonth[1]), inMonth[2] ? +inMonth[2] : undefined, today);
  const inYear = /\b(?:in|during|for)\s+(20\d{2})\b/.exec(q);
  if (inYear) return { from: `${inYear[1]}-01-01`, to: `${inYear[1]}-12-31` };
  return undefined;
}

const STAR = `(?:-|\\s)?(?:stars?|★|⭐)`;

/** Star ratings: "1-star", "5 stars", "one star", "1 or 2 stars", "1-2 stars", "4 stars and above", "below 3 stars". */
function ratingsOf(q: string): number[] | 'all' | undefined {
  if (/\b(all|any) (ratings|stars)\b/.test(q)) return 'all';
  const range = (a: number, b: number) => Array.from({ length: b - a + 1 }, (_, i) => a + i).filter((r) => r >= 1 && r <= 5);
  const atLeast = new RegExp(`\\b(?:at least|minimum|min\\.?)\\s+${NUM}${STAR}|\\b${NUM}${STAR}\\s+(?:and|or)\\s+(?:above|more|up|higher|better)`).exec(q);
  if (atLeast) return range(toNumber(atLeast[1] ?? atLeast[2]), 5);
  const atMost = new RegExp(`\\b(?:at most|maximum|max\\.?)\\s+${NUM}${STAR}|\\b${NUM}${STAR}\\s+(?:and|or)\\s+(?:below|less|under|lower|worse)`).exec(q);
  if (atMost) return range(1, toNumber(atMost[1] ?? atMost[2]));
  const below = new RegExp(`\\b(?:below|under|less than|fewer than|lower than)\\s+${NUM}${STAR}`).exec(q);
  if (below) return range(1, toNumber(below[1]) - 1);
  const above = new RegExp(`\\b(?:above|over|more than|higher than)\\s+${NUM}${STAR}`).exec(q);
  if (above) return range(toNumber(above[1]) + 1, 5);
  const span = new RegExp(`\\b${NUM}\\s*(?:-|–|to)\\s*${NUM}${STAR}`).exec(q);
  if (span) return range(Math.min(toNumber(span[1]), toNumber(span[2])), Math.max(toNumber(span[1]), toNumber(span[2])));
  const list = new RegExp(`\\b${NUM}((?:\\s*(?:,|or|and)\\s*${NUM})*)${STAR}`).exec(q);
  if (list) {
    const all = [list[1], ...(list[2].match(new RegExp(NUM, 'g')) ?? [])].map(toNumber).filter((r) => r >= 1 && r <= 5);
    if (all.length) return [...new Set(all)].sort();
  }
  return undefined;
}

function versionOf(q: string): string | 'all' | undefined {
  if (/\b(all|any|every) versions?\b/.test(q)) return 'all';
  const m = /\b(?:version|release|build|v)\s*(\d+(?:\.\d+)*)\b/.exec(q) ?? /\b(\d+\.\d+(?:\.\d+)*)\s+(?:version|release|build)\b/.exec(q);
  return m?.[1];
}

// Groupings and retired codes (DD East Germany, FX Metropolitan France, SU, YU…): a name means today's country.
const NOT_COUNTRIES = new Set(['EU', 'EZ', 'UN', 'ZZ', 'AN', 'BU', 'CS', 'DD', 'DY', 'FX', 'HV', 'NH', 'NT', 'RH', 'SU', 'TP', 'VD', 'YD', 'YU', 'ZR', 'AC', 'CP', 'DG', 'EA', 'IC', 'TA']);
// Regions by their English names (Intl), and the names people write for some of them.
const REGION_NAMES = (() => {
  const names = new Map<string, string>();
  const display = new Intl.DisplayNames(['en'], { type: 'region' });
  for (let a = 65; a <= 90; a++) {
    for (let b = 65; b <= 90; b++) {
      const code = String.fromCharCode(a, b);
      const name = display.of(code);
      // Not countries: the EU, the UN, "Unknown Region", the Q* and X* private-use groupings (Kosovo is XK).
      if (!name || name === code || NOT_COUNTRIES.has(code) || (/^(Q|X)/.test(code) && code !== 'XK')) continue;
      const key = name.toLowerCase().normalize('NFD').replace(/\p{M}/gu, '').replace(/[’‘]/g, "'");
      if (!names.has(key)) names.set(key, code);
    }
  }
  const aliases: Record<string, string> = {
    usa: 'US', 'the us': 'US', 'the u.s.': 'US', america: 'US', 'united states of america': 'US', uk: 'GB', 'the uk': 'GB',
    britain: 'GB', 'great britain': 'GB', england: 'GB', scotland: 'GB', wales: 'GB', turkey: 'TR', korea: 'KR', russia: 'RU',
    holland: 'NL', 'the netherlands': 'NL', 'czech republic': 'CZ', uae: 'AE', 'the uae': 'AE', vietnam: 'VN',
  };
  for (const [k, v] of Object.entries(aliases)) names.set(k, v);
  return names;
})();
const REGION_CODES = new Set(REGION_NAMES.values());
const REGION_RE = new RegExp(`(?<![\\p{L}\\p{N}])(${[...REGION_NAMES.keys()].sort((a, b) => b.length - a.length).map(escapeRe).join('|')})(?![\\p{L}\\p{N}])`, 'u');
// Two capitals that are also everyday words or abbreviations in questions are not read as country codes.
const NOT_CODES = new Set(['AI', 'IT', 'OK', 'ID', 'AM', 'PM', 'TV', 'UI', 'US']);

function countryOf(q: string, original: string): string | 'all' | undefined {
  if (/\b(all|any|every) countr(y|ies)\b|\bworldwide\b|\bglobally\b/.test(q)) return 'all';
  const named = REGION_RE.exec(q.normalize('NFD').replace(/\p{M}/gu, ''));
  if (named) return REGION_NAMES.get(named[1]);
  // A code as written in capitals: "in DE", "US reviews" ("US" as a word, not the pronoun, since it is in capitals).
  for (const m of original.matchAll(/\b([A-Z]{2})\b/g)) {
    if (m[1] === 'US' || (!NOT_CODES.has(m[1]) && REGION_CODES.has(m[1]))) return m[1];
  }
  return undefined;
}

const LANGUAGE_CODES = ['en', 'de', 'fr', 'es', 'it', 'pt', 'nl', 'sv', 'da', 'nb', 'fi', 'pl', 'cs', 'sk', 'tr', 'ru', 'uk', 'ja', 'zh', 'ko', 'ar', 'he', 'hi', 'id', 'ms', 'th', 'vi', 'el', 'hu', 'ro', 'bg', 'hr', 'sr', 'ca', 'fa'];
const LANGUAGE_NAMES = (() => {
  const display = new Intl.DisplayNames(['en'], { type: 'language' });
  const names = new Map<string, string>();
  for (const code of LANGUAGE_CODES) names.set((display.of(code) ?? code).toLowerCase().replace(/ bokmål$/, ''), code);
  names.set('norwegian', 'nb');
  names.set('chinese', 'zh');
  names.set('farsi', 'fa');
  return names;
})();
const LANGUAGE_ALT = [...LANGUAGE_NAMES.keys()].sort((a, b) => b.length - a.length).map(escapeRe).join('|');
// A language only where a question speaks of one ("in German", "German reviews"), never "Polish the UI".
const LANGUAGE_RE = new RegExp(
  `\\b(?:in|written in|language)\\s+(${LANGUAGE_ALT})\\b|\\b(${LANGUAGE_ALT})(?:-language|-speaking)?\\s+(?:reviews?|feedback|comments?|users?|speakers?|customers?|ratings?)\\b`,
);

function languageOf(q: string): string | 'all' | undefined {
  if (/\b(all|any|every) languages?\b/.test(q)) return 'all';
  const m = LANGUAGE_RE.exec(q);
  return m ? LANGUAGE_NAMES.get(m[1] ?? m[2]) : undefined;
}

function sentimentOf(q: string): AskSentiment | 'all' | undefined {
  if (/\b(all|any) sentiments?\b/.test(q)) return 'all';
  const m = /\b(positive|negative|neutral|mixed)\b/.exec(q);
  return m ? (m[1] as AskSentiment) : undefined;
}

const ALL_APPS = /\b(all|every|each|both) (of )?(my |our |the )?apps\b|\bacross (my |our |the )?apps\b/;

/** Whether the question asks about all the apps ("all my apps", "across apps"): the dashboard's app in view does not narrow it. */
export const asksAllApps = (text: string) => ALL_APPS.test(text.toLowerCase());

/** The scope's apps the question names by title (all of them when several are named). */
function appsOf(q: string, scope: AskScope): AskAppRef[] | 'all' | undefined {
  if (scope.apps.length > 1 && ALL_APPS.test(q)) return 'all';
  const named = scope.apps.filter((a) => a.title.trim() && new RegExp(`(?<![\\p{L}\\p{N}])${escapeRe(a.title.toLowerCase())}(?![\\p{L}\\p{N}])`, 'u').test(q));
  return named.length ? named.map((a) => ({ appStore: a.appStore, appId: a.appId })) : undefined;
}

/** "summarise this month", "a summary of last week", "recap", "sum up": the period's summary (server/insights). */
const SUMMARY = /\b(summari[sz]\w*|summary|sum up|recap|tl;? ?dr)\b/;
/** "since the last version", "latest release vs the previous one", "compare the last two versions": the newest version against the one before. */
const VERSION_CHANGE = new RegExp(
  [
    String.raw`\b(?:since|after|with|in) (?:the |our |my )?(?:last|latest|newest|new|previous|most recent|recent|current) (?:version|release|update|build)\b`,
    String.raw`\b(?:since|after) (?:the |our |my )?(?:update|upgrade|release)\b`,
    String.raw`\b(?:last|latest|newest|new|current|most recent) (?:version|release|update)\b.*\b(?:vs\.?|versus|compared?|against|previous|prior|before|one before)\b`,
    String.raw`\bcompar\w* (?:the )?(?:last|latest|newest|two|recent) (?:two )?versions?\b`,
    String.raw`\bversion (?:over|to|vs\.?|versus) version\b`,
  ].join('|'),
);
const COMPLAINTS = /\b(complain\w*|complaints?|gripes?|pain points?|what (?:do|are) (?:people|users|customers) (?:hate|dislike|unhappy)|(?:most|top|biggest|main|common|frequent)\s+(?:\w+\s+)?(?:issues?|problems?|complaints?|bugs?)|what(?:'s| is| are) wrong)\b/;
const TREND = /\b(trend\w*|over time|per (?:day|week)|by (?:day|week)|daily|weekly|each (?:day|week)|changed?|changing|evolv\w+|going (?:up|down)|improv\w+|worse|better|declin\w+)\b/;
const DISTRIBUTION = /\b(distribution|breakdown|break down|split|by (?:rating|stars?)|per (?:rating|star)|(?:each|every) (?:rating|star)|how many of each)\b/;
/** Words that ask for reviews themselves ("show me…"), as opposed to a bare mention of reviews or stars. */
export const LIST_VERBS = /\b(show|list|find|give|see|read|what do (?:people|users|customers) say|examples?|quotes?)\b/;
const LISTING = /\b(reviews?|feedback|comments?|stars?|positive|negative|neutral|mixed)\b/;
const AVERAGE = /\b(average|avg|mean|rated|score|what(?:'s| is) (?:the |our |my )?rating)\b/;
const COUNT = /\b(how many|number of|count|total)\b/;
const ABOUT = /\b(?:about|regarding|concerning|mentioning|mentions?|mentioned|related to|on the topic of|that talk about|talking about|with the words?|say(?:ing)? about|think of|feel about|feedback on|opinions? on)\s+(.+)$/;

/** Words that end a topic: the filters and the question's tail. */
const TOPIC_END = new RegExp(
  `\\s+(?:in|from|since|during|for|on|over|between|last|past|this|previous|before|after|until|by|with|written|and in|and from|among|across|rated|of version|version|v\\d)\\b.*$|\\s+(?:lately|recently|today|yesterday|(?:the )?most|overall|ever)\\b.*$`,
);
const TOPIC_NOISE = /^(?:the|a|an|our|my|their|its|this|that|people|users|reviews?)\s+/;

/** The topic of "reviews about X", "what do people say about X", "how many mention X", or a quoted phrase. */
function topicOf(q: string): string | undefined {
  const quoted = /["“”'‘’]([^"“”'‘’]{2,80})["“”'‘’]/.exec(q);
  if (quoted) return quoted[1].trim();
  const m = ABOUT.exec(q);
  if (!m) return undefined;
  let topic = m[1].replace(/[?.!]+$/, '').trim();
  let before: string;
  do {
    before = topic;
    topic = topic.replace(TOPIC_END, '').replace(TOPIC_NOISE, '').trim();
  } while (topic !== before);
  topic = topic.replace(/\b(?:\d\s*-?\s*stars?|reviews?)\b/g, '').replace(/\s+/g, ' ').trim();
  if (!topic || /^(?:it|this|that|them|these|those|ones?|the ones|most|the most|stuff|things?|anything|everything|the app|my app|our app|app)$/.test(topic)) return undefined;
  return topic;
}

function intentOf(q: string, topic: string | undefined): { intent: AskIntent; breakdown?: ParsedQuestion['breakdown'] } {
  if (SUMMARY.test(q)) return { intent: 'summary' };
  if (VERSION_CHANGE.test(q)) return { intent: 'version_change' };
  if (COMPLAINTS.test(q) && !COUNT.test(q)) return { intent: 'top_complaints' };
  const by = /\b(?:by|per|each|every|which|across)\s+(version|country|countries|rating|star)s?\b/.exec(q);
  const breakdown = by ? (by[1].startsWith('countr') ? 'country' : by[1] === 'star' ? 'rating' : (by[1] as 'version' | 'rating')) : undefined;
  if (TREND.test(q)) return { intent: 'trend', breakdown: /\b(week|weekly)\b/.test(q) ? 'week' : 'day' };
  if (DISTRIBUTION.test(q)) return { intent: 'distribution', breakdown: breakdown ?? 'rating' };
  if (AVERAGE.test(q)) return { intent: 'average', breakdown };
  if (COUNT.test(q)) return { intent: 'count', breakdown };
  // "by version" / "per country" alone: the count and average of each.
  if (breakdown === 'version' || breakdown === 'country') return { intent: 'average', breakdown };
  if (topic || LIST_VERBS.test(q) || LISTING.test(q)) return { intent: 'reviews_about' };
  return { intent: 'other' };
}

/** Sets `key` to what the question named, keeps the previous value when it named nothing, drops it on 'all'. */
function merge<K extends keyof AskFilters>(out: AskFilters, key: K, named: AskFilters[K] | 'all' | undefined, previous: AskFilters | undefined): void {
  if (named === 'all') return;
  const value = named ?? previous?.[key];
  if (value !== undefined) out[key] = value;
}

/** The filters, intent and topic of `text` (see the top of the file). */
export function parseQuestion(text: string, { scope, now, previous }: ParseQuestionOptions): ParsedQuestion {
  const original = text.normalize('NFKC');
  const q = original.toLowerCase().replace(/[’‘]/g, "'").replace(/\s+/g, ' ').trim();
  const filters: AskFilters = {};
  merge(filters, 'apps', appsOf(q, scope), previous);
  const dates = datesOf(q, now);
  if (dates !== 'all') {
    const named = dates && (dates.from !== undefined || dates.to !== undefined);
    if (named) {
      if (dates.from) filters.from = dates.from;
      if (dates.to) filters.to = dates.to;
    } else {
      if (previous?.from) filters.from = previous.from;
      if (previous?.to) filters.to = previous.to;
    }
  }
  merge(filters, 'version', versionOf(q), previous);
  merge(filters, 'country', countryOf(q, original), previous);
  merge(filters, 'ratings', ratingsOf(q), previous);
  merge(filters, 'language', languageOf(q), previous);
  merge(filters, 'sentiment', sentimentOf(q), previous);
  const topic = topicOf(q);
  const { intent, breakdown } = intentOf(q, topic);
  const out: ParsedQuestion = { filters, intent };
  if (topic && intent !== 'top_complaints') out.topic = topic;
  if (breakdown) out.breakdown = breakdown;
  return out;
}

/**
 * A search's words as tsquery text over the 'simple' configuration (words cut as reviews.search_vector cuts them):
 * each word as a prefix, after a light English suffix strip, so "crashes" finds crash, crashed, crashing. Stop words
 * are left out unless nothing else is left. `all`: every word; `any`: one of them (the fallback when all find nothing).
 */
export function textQuery(text: string, language?: string): { all: string; any: string; words: string[] } | undefined {
  const words = clauses(text, language).flat();
  const stop = stopWordsFor(language ?? 'en');
  const kept = words.filter((w) => !stop.has(w));
  const chosen = [...new Set((kept.length ? kept : words).map(stem))].slice(0, 8);
  if (!chosen.length) return undefined;
  const terms = chosen.map((w) => `${w}:*`);
  return { all: terms.join(' & '), any: terms.join(' | '), words: chosen };
}

function stem(word: string): string {
  if ([...word].length < 5) return word;
  for (const suffix of ['ing', 'ed', 'es', 's']) {
    if (word.endsWith(suffix) && [...word].length - suffix.length >= 4) return word.slice(0, -suffix.length);
  }
  return word;
}
