/**
 * The language a review is written in, from its own words: ELD (the `eld` package, its medium database: an n-gram detector for 60
 * languages, built for short texts and fast — some 20 µs a review). The store's language is no substitute: Google
 * Play reports the reviewer's device language, and a public feed the storefront's.
 *
 * Loaded once (`loadLanguageDetector`), its database read as JSON rather than compiled (eldData.ts: ~110 MB less
 * resident memory); detection itself is synchronous.
 */
import { trimMallocHeap } from '../../memory/mallocTrim';
import { loadEldMedium, type Detector } from './eldData';

let detector: Detector | null = null;
let loading: Promise<Detector> | null = null;

export async function loadLanguageDetector(): Promise<void> {
  if (detector) return;
  loading ??= loadEldMedium().then((d) => {
    // Reading the database leaves freed memory in the C heap (the file's bytes, the parser's buffers): given back now.
    trimMallocHeap();
    return (detector = d);
  });
  await loading;
}

/** Fewer letters than this say too little to name a language ("ok", "👍", "5/5"). */
const MIN_LETTERS = 3;
/** Whether a text holds MIN_LETTERS letters, without an array of all of them (a review's every letter, each call). */
const ENOUGH_LETTERS = new RegExp(`\\p{L}(?:[^\\p{L}]*\\p{L}){${MIN_LETTERS - 1}}`, 'u');

/** ISO 639-1 code of the language of `text`, or null when it cannot be told (too short, no letters, no clear winner). */
export function detectLanguage(text: string): string | null {
  if (!detector) throw new Error('detectLanguage before loadLanguageDetector()');
  if (!ENOUGH_LETTERS.test(text)) return null;
  return detector.detect(text).language || null;
}
