/**
 * Sentiment in four classes — positive, neutral, negative, mixed — from the star rating and a lexicon together, with
 * no model: ARB runs it on every review it stores.
 *
 * The lexicon is nlp.js's (AXA's @nlpjs/sentiment with the language packages' dictionaries: Senticon, Pattern or
 * AFINN, with negation words) for the languages below. Each sentence is scored on its own, so a review that praises
 * in one sentence and complains in the next shows both; the rating then decides how they read:
 *   4–5★  praise, or nothing in the lexicon → positive; a complaining sentence, or a reservation ("…, but …") → mixed;
 *   1–2★  → negative, unless the text leans positive overall, or praises before a "but" → mixed;
 *   3★    praise and complaint, or either with a "but" → mixed; only one of them → that one; neither → neutral.
 * The reservation is a contrastive conjunction (but, aber, mais, pero…): the words of it are in no lexicon, and in a
 * review it marks the turn from praise to complaint ("Love it, but the sync is slow") even when the complaint uses
 * no word the lexicon knows (the same cue VADER weighs for English).
 * A text in a language without a lexicon is classed by its rating alone (method 'rating').
 */
import { containerBootstrap, type Container } from '@nlpjs/core';
import { SentimentAnalyzer } from '@nlpjs/sentiment';
import { projectRequire } from '../../projectRequire';

export const SENTIMENTS = ['positive', 'neutral', 'negative', 'mixed'] as const;
export type Sentiment = (typeof SENTIMENTS)[number];
export type SentimentMethod = 'rating' | 'lexicon' | 'llm';
export type SentimentResult = { sentiment: Sentiment; score: number; method: SentimentMethod };

/** A sentence counts as praise or complaint from this lexicon weight on (a scale of −1…1); below it, noise. */
const SENTENCE_THRESHOLD = 0.1;

type Dictionaries = { afinn?: Record<string, number>; senticon?: Record<string, number>; pattern?: Record<string, number>; negations: { words: string[] }; stemmed?: boolean };
type Lexicon = { words: Record<string, number>; scale: number; negations: Set<string>; stemmed: boolean };

type Nlp = { analyzer: SentimentAnalyzer; container: Container };
let nlp: Nlp | null = null;
const lexicons = new Map<string, Lexicon | null>();

/**
 * The languages with a lexicon, by ISO 639-1 code: each one's nlp.js package and the plugin it exports. A package
 * (tokenizer, stemmer, stop words, lexicon) is loaded the first time a text in its language is classified, not all
 * of them up front: the 13 together are ~9 MB of resident memory (5 MB of it live objects), one 0.5–2 MB, measured
 * in a bare node; loading one takes 5–25 ms, once per process. A server whose apps' reviews come in one or two
 * languages never holds the others (bench/sources-memory.ts: its reviews are English).
 */
const LANGUAGE_PLUGINS: Record<string, string> = {
  da: 'LangDa',
  de: 'LangDe',
  en: 'LangEn',
  es: 'LangEs',
  fr: 'LangFr',
  id: 'LangId',
  it: 'LangIt',
  nl: 'LangNl',
  pl: 'LangPl',
  pt: 'LangPt',
  ru: 'LangRu',
  sv: 'LangSv',
  tr: 'LangTr',
};

/** nlp.js, made on first use, without languages (lexiconFor adds each one when it is first needed). */
export function nlpJs(): Nlp {
  if (!nlp) {
    const container = containerBootstrap();
    nlp = { analyzer: new SentimentAnalyzer({ container }), container };
  }
  return nlp;
}

/** A language's nlp.js package, by its name made at run time. */
function languagePlugin(language: string): unknown {
  return (projectRequire()(`@nlpjs/lang-${language}`) as Record<string, unknown>)[LANGUAGE_PLUGINS[language]];
}

function lexiconFor(language: string): Lexicon | null {
  if (lexicons.has(language)) return lexicons.get(language)!;
  let lexicon: Lexicon | null = null;
  if (Object.hasOwn(LANGUAGE_PLUGINS, language)) {
    const { container } = nlpJs();
    container.use(languagePlugin(language));
    const d = container.get(`sentiment-${language}`) as Dictionaries | undefined;
    // The same preference as nlp.js's own analyser: Senticon, then Pattern, then AFINN (scored −5…5).
    const words = d?.senticon ?? d?.pattern ?? d?.afinn;
    if (d && words) lexicon = { words, scale: d.senticon || d.pattern ? 1 : 5, negations: new Set(d.negations.words), stemmed: !!d.stemmed };
  }
  lexicons.set(language, lexicon);
  return lexicon;
}

/** A sentence's lexicon weight on −1…1 (a negation word flips what follows it in the sentence), and its hits. */
function sentenceScore(sentence: string, language: string, lexicon: Lexicon): { score: number; hits: number } {
  const tokens = nlpJs().analyzer.prepare(language, sentence, undefined, lexicon.stemmed);
  let score = 0;
  let hits = 0;
  let sign = 1;
  for (const raw of tokens) {
    const token = raw.toLowerCase();
    if (lexicon.negations.has(token)) sign = -1;
    else if (lexicon.words[token] !== undefined) {
      score += (sign * lexicon.words[token]) / lexicon.scale;
      hits++;
    }
  }
  return { score, hits };
}

const SENTENCE_END = /[.!?;…\n。！？]+/u;

/** Contrastive conjunctions per language (the reservation cue above), from grammar, not from any set of reviews. */
const CONTRAST: Record<string, string[]> = {
  en: ['but', 'however', 'although', 'though'],
  es: ['pero', 'aunque', 'sin embargo'],
  de: ['aber', 'jedoch', 'allerdings'],
  fr: ['mais', 'cependant', 'pourtant'],
  it: ['ma', 'però', 'tuttavia', 'anche se'],
  pt: ['mas', 'porém', 'embora'],
  nl: ['maar', 'echter'],
  ru: ['но', 'однако', 'хотя'],
  pl: ['ale', 'jednak', 'chociaż'],
  tr: ['ama', 'fakat', 'ancak'],
  sv: ['men', 'dock', 'fast'],
  da: ['men', 'dog'],
  id: ['tapi', 'tetapi', 'namun'],
};
const contrastPatterns = new Map(
  Object.entries(CONTRAST).map(([lang, words]) => [lang, new RegExp(`(?<![\\p{L}])(?:${words.join('|')})(?![\\p{L}])`, 'iu')]),
);

/** The text before its first contrastive conjunction (not at the very start), or null when it has none. */
function beforeContrast(text: string, language: string): string | null {
  const match = contrastPatterns.get(language)?.exec(text);
  if (!match || !text.slice(0, match.index).trim()) return null;
  return text.slice(0, match.index);
}

function byRating(rating: number): SentimentResult {
  const sentiment: Sentiment = rating >= 4 ? 'positive' : rating <= 2 ? 'negative' : 'neutral';
  return { sentiment, score: (rating - 3) / 2, method: 'rating' };
}

const clamp = (x: number) => Math.max(-1, Math.min(1, x));

/** The class of a review's text (title and body) with its rating, in `language` (null: unknown). */
export function classifySentiment(text: string, rating: number, language: string | null): SentimentResult {
  const lexicon = language ? lexiconFor(language) : null;
  if (!lexicon || !language) return byRating(rating);
  let praise = 0;
  let complaint = 0;
  let total = 0;
  for (const sentence of text.split(SENTENCE_END)) {
    if (!sentence.trim()) continue;
    const { score } = sentenceScore(sentence, language, lexicon);
    total += score;
    if (score >= SENTENCE_THRESHOLD) praise += score;
    else if (score <= -SENTENCE_THRESHOLD) complaint -= score;
  }
  const before = beforeContrast(text, language);
  const reservation = before !== null;
  let sentiment: Sentiment;
  if (rating >= 4) sentiment = complaint > 0 || reservation ? 'mixed' : 'positive';
  else if (rating <= 2) {
    const praisedFirst = before !== null && sentenceScore(before, language, lexicon).score >= SENTENCE_THRESHOLD;
    sentiment = praise > complaint || praisedFirst ? 'mixed' : 'negative';
  } else if ((praise && complaint) || (reservation && (praise || complaint))) sentiment = 'mixed';
  else sentiment = praise ? 'positive' : complaint ? 'negative' : 'neutral';
  return { sentiment, score: clamp(((rating - 3) / 2 + clamp(total)) / 2), method: 'lexicon' };
}
