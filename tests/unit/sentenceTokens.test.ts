import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { classifySentiment, nlpJs } from '@/server/ai/enrich/sentiment';
import { sentenceTokens } from '@/server/ai/enrich/tokens';

type Labelled = { title: string; body: string; rating: number; language: string };
const reviews = ['review-eval.json', 'review-eval-holdout.json'].flatMap(
  (f) => (JSON.parse(fs.readFileSync(path.join(__dirname, '../fixtures', f), 'utf8')) as { reviews: Labelled[] }).reviews,
);
const LANGUAGES = ['da', 'de', 'en', 'es', 'fr', 'id', 'it', 'nl', 'pl', 'pt', 'ru', 'sv', 'tr'];

describe('sentence tokens without nlp.js caches', () => {
  it('are the tokens nlp.js prepare() gives, stemmed or not, in every lexicon language', () => {
    // Classifying one review per language loads its nlp.js package (sentiment.ts).
    for (const language of LANGUAGES) classifySentiment('Good app. It crashes.', 3, language);
    const { analyzer, container } = nlpJs();
    let compared = 0;
    for (const r of reviews) {
      const language = r.language === 'ms' ? 'id' : r.language;
      if (!LANGUAGES.includes(language)) continue;
      for (const sentence of `${r.title}. ${r.body} (12-345), don't can't Ünïcödé`.split(/[.!?]+/)) {
        for (const stemmed of [true, false]) {
          // Twice: the second time nlp.js answers from its caches.
          for (let pass = 0; pass < 2; pass++) expect(sentenceTokens(container, language, sentence, stemmed)).toEqual(analyzer.prepare(language, sentence, undefined, stemmed));
          compared++;
        }
      }
    }
    expect(compared).toBeGreaterThan(1000);
  });
});
