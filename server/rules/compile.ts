/**
 * A rule's conditions → one predicate over a review. Pure, and fast enough to run every rule of an organisation on
 * every stored review. bench/rules.ts measures its cost: 20 rules of 5 conditions each take 12–13 µs a review on
 * average (goal ≤ 0.2 ms; 19 µs before a review's normalised fields and its text's stemmer were worked out once):
 *
 *  - the cheap conditions (ratings, languages, countries, versions, sentiments, tags, lengths) are checked first, and
 *    each is a Set lookup or a comparison, on the review's fields normalised once (`workedOutOf`: its country and
 *    languages lower-cased, its length counted) for every rule;
 *  - keywords match word forms: a keyword and the review are cut into words the way the inbox's search and the topics
 *    cut them (server/insights/tokens.ts: `clauses`), and each word is reduced to its stem by the stemmer of the
 *    text's language (`stemOf`, nlp.js's Snowball stemmers), so "refund" matches "refunds", "refunded" and
 *    "refunding", and "crash" matches "crashes". A keyword of several words matches those words next to each other
 *    in one clause ("sign in" in "can't sign in since"). The review is read in its own language and, when one is
 *    stored for its current version, in each translation (in that translation's language), so a German review says
 *    "refund" once it has an English translation that does. A review's stems are worked out once per language and
 *    shared by every rule asking (`ruleText`); a keyword's stems once per language per compiled rule.
 *
 * All conditions hold together (AND). A list condition left out, or a length left out, holds for every review.
 */
import { clauses, stemmerOf } from '../insights/tokens';
import { baseLanguage } from '../insights/stopwords';
import type { RuleConditions } from './schema';

/** What a condition reads of a review. `tagIds`: its tags in the rule's organisation (an earlier rule's included). */
export type RuleReview = {
  rating: number;
  title: string | null;
  body: string;
  /** The language detected from the text (ISO 639-1), and the store's (Google Play: the device's). */
  textLanguage: string | null;
  storeLanguage: string | null;
  country: string | null;
  appVersion: string | null;
  sentiment: string | null;
  tagIds: ReadonlySet<string>;
  /** Translations of the review's current version. */
  translations: ReadonlyArray<{ language: string; title: string | null; body: string }>;
};

/**
 * A text's words, stemmed in one language: the set of stems (one-word keywords) and every stem in order, with an
 * empty string between clauses (phrases: a stem is never empty, so a phrase never matches across a clause).
 */
type StemmedText = { stems: Set<string>; sequence: string[] };

function stemText(text: string, lang: string): StemmedText {
  const stem = stemmerOf(lang);
  const stems = new Set<string>();
  const sequence: string[] = [];
  for (const words of clauses(text, lang)) {
    if (sequence.length) sequence.push('');
    for (const w of words) {
      const s = stem(w);
      stems.add(s);
      sequence.push(s);
    }
  }
  return { stems, sequence };
}

/** The review's language for reading its text: the detected one, else the store's (English's stemmer when neither). */
export const readingLanguage = (r: Pick<RuleReview, 'textLanguage' | 'storeLanguage'>): string => baseLanguage(r.textLanguage ?? r.storeLanguage) || 'en';

/** The review's texts, each with the language it is read in: its own, then each translation. */
function stemmedTexts(r: RuleReview): Map<string, StemmedText[]> {
  const byLang = new Map<string, StemmedText[]>();
  const add = (lang: string, text: string) => {
    const list = byLang.get(lang) ?? [];
    list.push(stemText(text, lang));
    byLang.set(lang, list);
  };
  add(readingLanguage(r), `${r.title ?? ''}\n${r.body}`);
  for (const t of r.translations) add(baseLanguage(t.language) || 'en', `${t.title ?? ''}\n${t.body}`);
  return byLang;
}

/** A language as the conditions compare it, and its base ("pt-br" and "pt"); null when unknown. */
function languageForms(language: string | null): [string, string] | null {
  if (!language) return null;
  const lang = language.toLowerCase().replace('_', '-');
  return [lang, baseLanguage(lang)];
}

/**
 * What the conditions read of a review, worked out once per review and shared by every rule asking: the fields the
 * cheap conditions compare, normalised, and (only once a keyword condition asks) its texts stemmed.
 */
type WorkedOut = {
  country: string | null;
  textLanguage: [string, string] | null;
  storeLanguage: [string, string] | null;
  length: number;
  texts?: Map<string, StemmedText[]>;
};
const workedOut = new WeakMap<RuleReview, WorkedOut>();

function workedOutOf(r: RuleReview): WorkedOut {
  let w = workedOut.get(r);
  if (!w) {
    w = { country: r.country?.toLowerCase() ?? null, textLanguage: languageForms(r.textLanguage), storeLanguage: languageForms(r.storeLanguage), length: textLength(r.body) };
    workedOut.set(r, w);
  }
  return w;
}

const ruleText = (r: RuleReview): Map<string, StemmedText[]> => (workedOutOf(r).texts ??= stemmedTexts(r));

/** A keyword's stems in `lang`: one list per keyword (several words for a phrase); empty keywords dropped. */
type KeywordStems = string[][];

function keywordMatcher(list: readonly string[]): (r: RuleReview) => boolean {
  const byLang = new Map<string, KeywordStems>();
  const stemsIn = (lang: string): KeywordStems => {
    let k = byLang.get(lang);
    if (!k) {
      const stem = stemmerOf(lang);
      k = list.map((kw) => clauses(kw, lang).flat().map(stem)).filter((s) => s.length > 0);
      byLang.set(lang, k);
    }
    return k;
  };
  return (r) => {
    for (const [lang, versions] of ruleText(r)) {
      const kws = stemsIn(lang);
      for (const text of versions) {
        for (const kw of kws) if (containsKeyword(text, kw)) return true;
      }
    }
    return false;
  };
}

function containsKeyword(text: StemmedText, kw: string[]): boolean {
  if (!kw.every((s) => text.stems.has(s))) return false;
  if (kw.length === 1) return true;
  const seq = text.sequence;
  for (let i = 0; i + kw.length <= seq.length; i++) {
    let j = 0;
    while (j < kw.length && seq[i + j] === kw[j]) j++;
    if (j === kw.length) return true;
  }
  return false;
}

const languageMatches = (wanted: ReadonlySet<string>, forms: [string, string] | null): boolean => forms !== null && (wanted.has(forms[0]) || wanted.has(forms[1]));

/** A version condition "2.4" holds for 2.4 and every 2.4.x; "2.4.1" only for 2.4.1. */
function versionMatches(wanted: readonly string[], version: string | null): boolean {
  if (!version) return false;
  const v = version.trim();
  return wanted.some((w) => v === w || v.startsWith(`${w}.`));
}

/** The review's text length, as people count it: characters (code points) of its text, trimmed. */
export function textLength(body: string): number {
  const text = body.trim();
  let n = 0;
  for (let i = 0; i < text.length; i++, n++) {
    // A high surrogate followed by a low one is one character (an emoji, a rare CJK ideograph).
    const c = text.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff && i + 1 < text.length) {
      const d = text.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) i++;
    }
  }
  return n;
}

export type Predicate = (r: RuleReview) => boolean;

/** The conditions as one predicate: every condition given must hold. */
export function compileConditions(c: RuleConditions): Predicate {
  const checks: Predicate[] = [];
  if (c.ratings?.length) {
    const ratings = new Set(c.ratings);
    checks.push((r) => ratings.has(r.rating));
  }
  if (c.sentiments?.length) {
    const s = new Set<string>(c.sentiments);
    checks.push((r) => r.sentiment !== null && s.has(r.sentiment));
  }
  if (c.countries?.length) {
    const s = new Set(c.countries.map((x) => x.toLowerCase()));
    checks.push((r) => {
      const country = workedOutOf(r).country;
      return country !== null && s.has(country);
    });
  }
  if (c.languages?.length) {
    const s = new Set(c.languages.map((x) => x.toLowerCase()));
    checks.push((r) => {
      const n = workedOutOf(r);
      return languageMatches(s, n.textLanguage) || languageMatches(s, n.storeLanguage);
    });
  }
  if (c.versions?.length) {
    const v = c.versions.map((x) => x.trim());
    checks.push((r) => versionMatches(v, r.appVersion));
  }
  if (c.tags_any?.length) {
    const tags = c.tags_any;
    checks.push((r) => tags.some((t) => r.tagIds.has(t)));
  }
  if (c.min_length !== undefined) {
    const min = c.min_length;
    checks.push((r) => workedOutOf(r).length >= min);
  }
  if (c.max_length !== undefined) {
    const max = c.max_length;
    checks.push((r) => workedOutOf(r).length <= max);
  }
  // The word conditions last: they are the only ones that read the text.
  if (c.keywords_any?.length) checks.push(keywordMatcher(c.keywords_any));
  if (c.keywords_none?.length) {
    const any = keywordMatcher(c.keywords_none);
    checks.push((r) => !any(r));
  }
  if (checks.length === 0) return () => true;
  return (r) => {
    for (const check of checks) if (!check(r)) return false;
    return true;
  };
}
