/**
 * A review's words, per language, the way the inbox's search reads them: PostgreSQL's default parser (the 'simple'
 * configuration of reviews.search_vector) splits at every character that is not a letter or a digit, apostrophes and
 * hyphens included, and lower-cases. Cutting words the same way means a term found here is a term the inbox's search
 * finds (`q=word`, or `q="two words"` for a phrase).
 *
 * Languages written without spaces (Japanese, Chinese, Thai, Lao, Khmer, Burmese) are cut into words by
 * Intl.Segmenter (ICU's dictionaries).
 */
import { baseLanguage, stopWordsFor } from './stopwords';

const UNSPACED = new Set(['ja', 'zh', 'th', 'lo', 'km', 'my']);
/** Punctuation that ends a clause: a phrase never spans it. */
const CLAUSE_BREAK = /[.!?;:,()[\]{}"“”«»„¿¡\n\r\t…。、！？；：，「」『』（）|/\\•·–—]+/u;
const WORD = /[\p{L}\p{M}\p{N}]+/gu;
const DIGITS = /^\p{N}+$/u;

const segmenters = new Map<string, Intl.Segmenter>();
function segmenter(lang: string): Intl.Segmenter {
  let s = segmenters.get(lang);
  if (!s) segmenters.set(lang, (s = new Intl.Segmenter(lang, { granularity: 'word' })));
  return s;
}

/** The clauses of `text`, each as its lower-cased words in order. */
export function clauses(text: string, language?: string | null): string[][] {
  const lang = baseLanguage(language);
  const lower = text.normalize('NFKC').toLocaleLowerCase(lang || 'en');
  const out: string[][] = [];
  for (const clause of lower.split(CLAUSE_BREAK)) {
    const words = UNSPACED.has(lang)
      ? [...segmenter(lang).segment(clause)].filter((s) => s.isWordLike).map((s) => s.segment)
      : (clause.match(WORD) ?? []);
    if (words.length) out.push(words);
  }
  return out;
}

/** Whether `word` can be a term: not a stop word, not a number, not one letter (except in scripts without spaces). */
function meaningful(word: string, stop: ReadonlySet<string>, unspaced: boolean): boolean {
  if (stop.has(word) || DIGITS.test(word)) return false;
  return unspaced ? !/^[\p{Script=Hiragana}\p{Script=Katakana}]$/u.test(word) : [...word].length >= 2;
}

export type ReviewTerms = { words: Set<string>; phrases: Set<string> };

/**
 * The distinct terms of one review: its words that are not stop words, and its two-word phrases (two such words next
 * to each other in one clause). `extraStop`: more words to leave out (the app's own name, in every review of it).
 */
export function reviewTerms(text: string, language?: string | null, extraStop?: ReadonlySet<string>): ReviewTerms {
  const lang = baseLanguage(language);
  const stop = stopWordsFor(lang);
  const unspaced = UNSPACED.has(lang);
  const words = new Set<string>();
  const phrases = new Set<string>();
  for (const clause of clauses(text, lang)) {
    let previous: string | null = null;
    for (const w of clause) {
      if (!meaningful(w, stop, unspaced) || extraStop?.has(w)) {
        previous = null;
        continue;
      }
      words.add(w);
      if (previous) phrases.add(`${previous} ${w}`);
      previous = w;
    }
  }
  return { words, phrases };
}
