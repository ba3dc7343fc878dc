/**
 * Sentiment in four classes — positive, neutral, negative, mixed — from the star rating and the text together, with
 * no model: ARB runs it on every review it stores.
 *
 * The text's side is explicit praise and explicit complaint: the app-review cues of cues.ts per language ("love it",
 * "works perfectly" / "crashes on open", "cannot log in", "keeps freezing", "waste of money"), each turned around by a
 * negation before it ("never crashes", "no ads"), sentence by sentence. Then:
 *   praise and complaint both → mixed, whatever the stars ("Love the design but it crashes");
 *   praise only → positive, or mixed on 1–2★ (the stars are the complaint);
 *   complaint only → negative, or mixed on 4–5★ (the stars are the praise);
 *   neither → the stars' direction: 4–5★ positive, 3★ neutral, 1–2★ negative;
 *   on 3★ a lukewarm cue ("does the job", "nothing special") without a complaint → neutral, even beside mild praise.
 * A reservation counts as the complaint: praise, then a contrastive conjunction (but, aber, mais, pero…) followed by
 * words that are no cue ("Handy app, although the search could be smarter").
 * Mixed therefore needs praise and a complaint that are both explicit. Until 2026-12-02 the general-purpose
 * dictionaries of nlp.js (AXA's @nlpjs/sentiment: Senticon, Pattern or AFINN) decided it: they score app-review words
 * at random (English Senticon: "crash" +0.38, "open" +0.25, "time" +0.38), so most 1★ complaints leaned positive and
 * read as mixed. The dictionary's weight now only moves the score (−1…1) with the stars and the cues.
 * A text in a language without cues or a dictionary is classed by its rating alone (method 'rating').
 */
import { containerBootstrap, type Container } from '@nlpjs/core';
import { SentimentAnalyzer } from '@nlpjs/sentiment';
import { projectRequire } from '../../projectRequire';
import { CUE_LANGUAGE, sentenceCues } from './cues';
import { sentenceTokens } from './tokens';

export const SENTIMENTS = ['positive', 'neutral', 'negative', 'mixed'] as const;
export type Sentiment = (typeof SENTIMENTS)[number];
export type SentimentMethod = 'rating' | 'lexicon' | 'llm';
export type SentimentResult = { sentiment: Sentiment; score: number; method: SentimentMethod };

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
  // nlp.js's tokens without its per-text caches (tokens.ts); prepare() itself where there is no tokenizer.
  const { analyzer, container } = nlpJs();
  const tokens = sentenceTokens(container, language, sentence, lexicon.stemmed) ?? analyzer.prepare(language, sentence, undefined, lexicon.stemmed);
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

/**
 * Whether the text praises, then turns at a contrastive conjunction to words that are neither praise nor complaint
 * cues, at least two of them ("…, but the search could be smarter"; not "…, but this is really good").
 */
function isReservation(text: string, language: string): boolean {
  const match = contrastPatterns.get(language)?.exec(text);
  if (!match) return false;
  const before = sentenceCues(text.slice(0, match.index), language);
  const rest = text.slice(match.index + match[0].length).split(SENTENCE_END)[0];
  const after = sentenceCues(rest, language);
  return !!before?.praise && !!after && !after.praise && !after.complaint && (rest.match(/\p{L}+/gu)?.length ?? 0) >= 2;
}

function byRating(rating: number): SentimentResult {
  const sentiment: Sentiment = rating >= 4 ? 'positive' : rating <= 2 ? 'negative' : 'neutral';
  return { sentiment, score: (rating - 3) / 2, method: 'rating' };
}

const clamp = (x: number) => Math.max(-1, Math.min(1, x));

/** The class of a review's text (title and body) with its rating, in `language` (null: unknown). */
export function classifySentiment(text: string, rating: number, language: string | null): SentimentResult {
  const lang = language ? (CUE_LANGUAGE[language] ?? language) : null;
  const lexicon = lang ? lexiconFor(lang) : null;
  if (!lang || (!lexicon && !sentenceCues('', lang))) return byRating(rating);
  let total = 0;
  let praise = 0;
  let complaint = 0;
  let lukewarm = 0;
  for (const sentence of text.split(SENTENCE_END)) {
    if (!sentence.trim()) continue;
    if (lexicon) total += sentenceScore(sentence, lang, lexicon).score;
    const cues = sentenceCues(sentence, lang);
    if (cues) {
      praise += cues.praise;
      complaint += cues.complaint;
      lukewarm += cues.lukewarm;
    }
  }
  // On a 3★ review without a complaint, "it does the job, nothing special" outweighs mild praise: neutral.
  const lukewarmOnly = rating === 3 && lukewarm > 0 && !complaint;
  // A reservation: praise, then a contrastive conjunction followed by words that are neither praise nor complaint
  // ("Handy app, although the search could be smarter"): the turn is the complaint.
  if (praise && !complaint && isReservation(text, lang)) complaint = 1;
  let sentiment: Sentiment;
  if (lukewarmOnly) sentiment = 'neutral';
  else if (praise && complaint) sentiment = 'mixed';
  else if (praise) sentiment = rating <= 2 ? 'mixed' : 'positive';
  else if (complaint) sentiment = rating >= 4 ? 'mixed' : 'negative';
  else sentiment = rating > 3 ? 'positive' : rating < 3 ? 'negative' : 'neutral';
  const cueLean = praise + complaint ? (praise - complaint) / (praise + complaint) : 0;
  return { sentiment, score: clamp(((rating - 3) / 2 + clamp((clamp(total) + cueLean) / 2)) / 2), method: 'lexicon' };
}
