/**
 * A review's words and phrases, per language, the way the inbox's search reads them: PostgreSQL's default parser (the 'simple'
 * configuration of reviews.search_vector) splits at every character that is not a letter or a digit, apostrophes and
 * hyphens included, and lower-cases. Cutting words the same way means a term found here is a term the inbox's search
 * finds (`q=word`, or `q="two words"` for a phrase).
 *
 * Languages written without spaces (Japanese, Chinese, Thai, Lao, Khmer, Burmese) are cut into words by
 * Intl.Segmenter (ICU's dictionaries).
 *
 * Word forms are grouped by the language's stemmer (nlp.js's Snowball stemmers, `@nlpjs/lang-xx`, for the thirteen
 * languages it has): "crash", "crashes", "crashing" and "crashed" are one term, keyed by their stem ("crash"), shown as
 * the form most reviews use (terms.ts). Other languages keep each form apart.
 *
 * Phrases are two words that are not stop words, next to each other in one clause ("battery drain"); in English also
 * with up to two small words between them (GAP_WORDS: "sign in with apple", "crashes on open"), and a verb with its
 * particle ("log in", "sign up", "logged out").
 */
import { createRequire } from 'node:module';
import { projectRequire } from '../projectRequire';
import { baseLanguage, stopWordsFor } from './stopwords';

const UNSPACED = new Set(['ja', 'zh', 'th', 'lo', 'km', 'my']);
/**
 * The languages whose lower case differs from the root's (Unicode's SpecialCasing: Turkish and Azeri dotted and
 * dotless i, Lithuanian's dot above): only their text needs toLocaleLowerCase, which costs more than toLowerCase.
 */
const LOCALE_CASED = new Set(['tr', 'az', 'lt']);
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
  const normal = text.normalize('NFKC');
  const lower = LOCALE_CASED.has(lang) ? normal.toLocaleLowerCase(lang) : normal.toLowerCase();
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

/** Languages with an nlp.js stemmer (`@nlpjs/lang-xx`, a dependency of the sentiment analyser). */
const STEMMED = new Set(['da', 'de', 'en', 'es', 'fr', 'id', 'it', 'nl', 'pl', 'pt', 'ru', 'sv', 'tr']);
type Stemmer = { stemWord(word: string): string };
const stemmers = new Map<string, Stemmer | null>();
const STEM_CACHE_MAX = 50_000;

/** The language's stemmer, loaded on first use (only its stemmer file: the package's dictionaries stay unloaded). */
function stemmerFor(lang: string): Stemmer | null {
  if (stemmers.has(lang)) return stemmers.get(lang)!;
  let stemmer: Stemmer | null = null;
  if (STEMMED.has(lang)) {
    try {
      const name = `Stemmer${lang[0].toUpperCase()}${lang[1]}`;
      // English's stemmer lives in @nlpjs/lang-en-min, which @nlpjs/lang-en depends on.
      const load = lang === 'en' ? createRequire(projectRequire().resolve('@nlpjs/lang-en')) : projectRequire();
      const mod = load(lang === 'en' ? '@nlpjs/lang-en-min/src/stemmer-en' : `@nlpjs/lang-${lang}/src/stemmer-${lang}`) as Record<string, new () => Stemmer> | (new () => Stemmer);
      const Ctor = typeof mod === 'function' ? mod : mod[name];
      stemmer = new Ctor();
    } catch {
      stemmer = null;
    }
  }
  stemmers.set(lang, stemmer);
  return stemmer;
}

/** The word's stem in `language` (the word itself where there is no stemmer): what word forms are grouped by. */
export function stemOf(word: string, language?: string | null): string {
  return stemmerOf(language)(word);
}

const unstemmed = (word: string) => word;
const boundStemmers = new Map<string, (word: string) => string>();

/** stemOf for one language, its stemmer and cache looked up once: for the many words of one text. */
export function stemmerOf(language?: string | null): (word: string) => string {
  const lang = baseLanguage(language) || 'en';
  let bound = boundStemmers.get(lang);
  if (bound) return bound;
  const stemmer = stemmerFor(lang);
  if (!stemmer) bound = unstemmed;
  else {
    const cache = new Map<string, string>();
    bound = (word) => {
      let stem = cache.get(word);
      if (stem === undefined) {
        stem = stemmer.stemWord(word) || word;
        if (cache.size >= STEM_CACHE_MAX) cache.clear();
        cache.set(word, stem);
      }
      return stem;
    };
  }
  boundStemmers.set(lang, bound);
  return bound;
}

/** English particles that finish a phrasal verb: "log in", "sign up", "logged out". */
const PARTICLES = new Set(['in', 'up', 'out', 'off']);
/**
 * The English stop words a phrase may hold between its two words: the small words of "sign in with apple", "crashes
 * on open", "stuck at loading". Others ("since", "and", "the") end it: "drain since update" is two terms, not one.
 */
const GAP_WORDS = new Set(['in', 'on', 'with', 'at', 'to', 'into', 'for', 'of', 'via', 'up', 'out', 'off']);
const MAX_PHRASE_WORDS = 4;

export type ReviewTerms = {
  /** Its terms' surface forms as written (lower-cased), words and phrases. */
  words: Set<string>;
  phrases: Set<string>;
  /** key (stems joined by a space) → the surface form this review used. */
  forms: Map<string, string>;
};

/**
 * The distinct terms of one review: its words that are not stop words and its phrases (see the top of the file).
 * `extraStop`: more words to leave out (the app's own name, in every review of it).
 */
export function reviewTerms(text: string, language?: string | null, extraStop?: ReadonlySet<string>): ReviewTerms {
  const lang = baseLanguage(language);
  const stop = stopWordsFor(lang);
  const unspaced = UNSPACED.has(lang);
  const english = stop === stopWordsFor('en');
  const words = new Set<string>();
  const phrases = new Set<string>();
  const forms = new Map<string, string>();
  const add = (set: Set<string>, surface: string[], stems: string[]) => {
    const form = surface.join(' ');
    const key = stems.join(' ');
    set.add(form);
    if (!forms.has(key)) forms.set(key, form);
  };
  for (const clause of clauses(text, lang)) {
    const ok = clause.map((w) => meaningful(w, stop, unspaced) && !extraStop?.has(w));
    const stems = clause.map((w, i) => (ok[i] ? stemOf(w, lang) : w));
    for (let i = 0; i < clause.length; i++) {
      if (!ok[i]) continue;
      add(words, [clause[i]], [stems[i]]);
      if (unspaced) {
        if (i + 1 < clause.length && ok[i + 1]) add(phrases, clause.slice(i, i + 2), stems.slice(i, i + 2));
        continue;
      }
      for (let j = i + 1; j < clause.length && j - i < MAX_PHRASE_WORDS; j++) {
        if (ok[j]) {
          add(phrases, clause.slice(i, j + 1), stems.slice(i, j + 1));
          break;
        }
        const w = clause[j];
        // A verb and its particle: "log in", "signed up" (only as the phrase's second word).
        if (english && j === i + 1 && PARTICLES.has(w)) add(phrases, [clause[i], w], [stems[i], w]);
        if (!english || !GAP_WORDS.has(w)) break;
      }
    }
  }
  return { words, phrases, forms };
}
