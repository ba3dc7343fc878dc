/**
 * A sentence's tokens as nlp.js's SentimentAnalyzer.prepare gives them (its language's tokenizer, normalized, then its
 * stemmer when the lexicon is stemmed), without the two caches nlp.js keeps on its singletons. Its tokenizer keeps
 * every text it was given with its tokens (for an hour), and its stemmer every word it ever stemmed (for the life of
 * the process), each in a plain object keyed by the text: on the ingest, where every sentence is new, each call added
 * a key to an object of thousands (~30 µs a review, the share of bench/ingest.ts's enrichment that a loop over the
 * same few hundred texts never paid, every sentence a hit there), and the sentences stayed reachable until the hour
 * was out. Here the tokenizer's own steps run on each sentence (`normalize`, then `innerTokenize`: what its
 * `tokenize(text, true)` does on a miss), and stems are memoized in a Map of bounded size (the stemmer's own steps on a
 * miss: its dictionary's exceptions, then the Snowball stem). tests/unit/sentenceTokens.test.ts compares the tokens
 * with nlp.js's.
 */
import type { Container } from '@nlpjs/core';

type Tokenizer = { normalize(text: string, force?: boolean): string; innerTokenize(text: string, normalize?: boolean): string[] };
type Stemmer = {
  dictionary: { before: Record<string, string>; after: Record<string, string> };
  setCurrent(word: string): void;
  innerStem(): void;
  getCurrent(): string;
  getTokenizer(): Tokenizer;
};
type Tokens = { tokenizer: Tokenizer | null; stemmer: Stemmer | null; stems: Map<string, string> };

/** Distinct words memoized per language before the memo starts again (a few MB at most). */
const MAX_STEMS = 50_000;

const byLanguage = new Map<string, Tokens>();

function tokensFor(container: Container, language: string, stemmed: boolean): Tokens {
  const key = `${language}:${stemmed}`;
  let t = byLanguage.get(key);
  if (!t) {
    // The same look-ups as prepare(): the language's stemmer, else English's; its tokenizer, else the language's.
    const stemmer = stemmed ? ((container.get(`stemmer-${language}`) || container.get('stemmer-en')) as Stemmer | undefined) : undefined;
    const tokenizer = stemmer ? stemmer.getTokenizer() : ((container.get(`tokenizer-${language}`) || container.get('tokenizer-en')) as Tokenizer | undefined);
    t = { tokenizer: tokenizer ?? null, stemmer: stemmer ?? null, stems: new Map() };
    byLanguage.set(key, t);
  }
  return t;
}

/** BaseStemmer.stemWord without its cache. */
function stem(stemmer: Stemmer, word: string): string {
  const { before, after } = stemmer.dictionary;
  if (Object.hasOwn(before, word)) return before[word];
  stemmer.setCurrent(word);
  stemmer.innerStem();
  const result = stemmer.getCurrent();
  return Object.hasOwn(after, result) ? after[result] : result;
}

/** The tokens of `sentence` in `language`; null when nlp.js has no tokenizer for it (the caller asks prepare()). */
export function sentenceTokens(container: Container, language: string, sentence: string, stemmed: boolean): string[] | null {
  const t = tokensFor(container, language, stemmed);
  if (!t.tokenizer) return null;
  const words = t.tokenizer.innerTokenize(t.tokenizer.normalize(sentence, true), true);
  if (!t.stemmer) return words;
  const out: string[] = [];
  for (const word of words) {
    let s = t.stems.get(word);
    if (s === undefined) {
      s = stem(t.stemmer, word);
      if (t.stems.size >= MAX_STEMS) t.stems.clear();
      t.stems.set(word, s);
    }
    // stemWords(): an empty stem is left out, the others trimmed.
    if (s) out.push(s.trim());
  }
  return out;
}
