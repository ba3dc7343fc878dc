/**
 * Stop words per review language: the words that are in nearly every review of a language and name nothing about
 * an app ("the", "und", "que"). Lists from `stopwords-iso` (57 languages, by ISO 639-1 code, the code the enrichment's
 * language detection gives), with two changes:
 *
 *  - Its English list merges search-engine lists and drops content words that app reviews are made of ("problem",
 *    "work", "working", "fix", "open", "page", "order", "login" is kept there already): those are put back, so
 *    "stopped working" or "page blank" can be a term. The other languages' lists are function words and are used as
 *    they are.
 *  - Words for "app" in the major review languages: every review is about an app.
 *
 * A review without a known language gets the English list (the one most reviews in any store mix in).
 */
import lists from 'stopwords-iso';

const KEPT_ENGLISH = new Set(
  (
    'problem problems work works worked working fix open opens opened opening page pages order orders ordered ordering ' +
    'stop free system test text click home site website webpage number numbers help information results show shows ' +
    'showed showing shown keep keeps kept name line date bill copy empty sent found find search value group groups ' +
    'member members year years serious poorly slow sorry'
  ).split(' '),
);

const APP_WORDS = (
  'app apps application applications aplicación aplicacion aplicaciones aplicativo aplicativos applicazione ' +
  'anwendung appli applis приложение приложения uygulama aplikacja aplikasi アプリ 应用 앱'
).split(' ');

const all: Record<string, string[]> = lists;
const cache = new Map<string, ReadonlySet<string>>();

/** The primary language subtag of a code (`pt-BR` → `pt`), lower-cased; '' when there is none. */
export function baseLanguage(code: string | null | undefined): string {
  return (code ?? '').toLowerCase().split(/[-_]/)[0] ?? '';
}

/** The stop words of `language` (a code like en, pt-BR), English when unknown or without a list. */
export function stopWordsFor(language: string | null | undefined): ReadonlySet<string> {
  const lang = all[baseLanguage(language)] ? baseLanguage(language) : 'en';
  let set = cache.get(lang);
  if (!set) {
    const words = all[lang].filter((w) => lang !== 'en' || !KEPT_ENGLISH.has(w));
    set = new Set([...words.map((w) => w.toLocaleLowerCase(lang)), ...APP_WORDS]);
    cache.set(lang, set);
  }
  return set;
}

/** Whether stop-word lists exist for `language` (else English is used). */
export const hasStopWords = (language: string | null | undefined) => Boolean(all[baseLanguage(language)]);
