/**
 * What ARB works out about every review it stores, locally and synchronously on ingest: the language of its text and
 * its sentiment (server/ai/README.md). The language model refines the sentiment later, in the background (refine.ts).
 */
import { detectLanguage, loadLanguageDetector } from './language';
import { classifySentiment, nlpJs, type Sentiment, type SentimentMethod } from './sentiment';

export type Enrichment = { text_language: string | null; sentiment: Sentiment; sentiment_score: number; sentiment_method: SentimentMethod };

/** Needs `loadLanguageDetector()` (or one `enrichReviews` call) first. */
export function enrichReview(r: Reviewed): Enrichment {
  const text = r.title ? `${r.title}.\n${r.body}` : r.body;
  const language = detectLanguage(text);
  const s = classifySentiment(text, r.rating, language);
  return { text_language: language, sentiment: s.sentiment, sentiment_score: Math.round(s.score * 1000) / 1000, sentiment_method: s.method };
}

type Reviewed = { title: string | null; body: string; rating: number };

/** `enrichReview` for each review, in order (loading the language detector the first time). */
export async function enrichReviews(reviews: Reviewed[]): Promise<Enrichment[]> {
  await prepareEnrichment();
  return reviews.map(enrichReview);
}

/**
 * Loads what enrichment needs once per process (the detector's database: seconds on a busy machine). Each language's
 * lexicon is loaded at the first review in it (sentiment.ts), 5–25 ms.
 */
export async function prepareEnrichment(): Promise<void> {
  await loadLanguageDetector();
  nlpJs();
}
