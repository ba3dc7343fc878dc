// Language of a review's text and its 4-class sentiment (rating + lexicon), as ingest computes them for every review.
import { beforeAll, describe, expect, it } from 'vitest';
import { enrichReview } from '@/server/ai/enrich';
import { detectLanguage, loadLanguageDetector } from '@/server/ai/enrich/language';
import { readClasses } from '@/server/ai/enrich/refine';
import { classifySentiment } from '@/server/ai/enrich/sentiment';

beforeAll(() => loadLanguageDetector());

describe('language of the text', () => {
  it.each([
    ['Sehr gut, macht was es soll', 'de'],
    ['Muy buena aplicación', 'es'],
    ['Très pratique, je recommande', 'fr'],
    ['Ottima app, la consiglio', 'it'],
    ['Aplicativo muito bom', 'pt'],
    ['Отличное приложение', 'ru'],
    ['Crashes every time I open it', 'en'],
  ])('%s → %s', (text, language) => {
    expect(detectLanguage(text)).toBe(language);
  });

  it('says nothing for text with too few letters to tell', () => {
    for (const text of ['👍', 'ok', '5/5 ⭐⭐⭐⭐⭐', '']) expect(detectLanguage(text)).toBeNull();
  });
});

describe('sentiment in four classes', () => {
  it('reads praise with a reservation as mixed, even at five stars', () => {
    expect(classifySentiment('Love the app but the latest update broke notifications.', 5, 'en')).toMatchObject({ sentiment: 'mixed', method: 'lexicon' });
    expect(classifySentiment('Gute App, aber die Synchronisierung funktioniert nicht immer.', 4, 'de').sentiment).toBe('mixed');
  });

  it('reads plain praise and plain complaint by stars and words together', () => {
    expect(classifySentiment('Great app, I love it!', 5, 'en')).toMatchObject({ sentiment: 'positive', method: 'lexicon' });
    expect(classifySentiment('Horrible app, keeps crashing.', 1, 'en').sentiment).toBe('negative');
    expect(classifySentiment('I updated today. The menu is at the bottom now.', 3, 'en').sentiment).toBe('neutral');
  });

  it('falls back to the stars alone without a lexicon for the language, or without a language', () => {
    expect(classifySentiment('とても使いやすいアプリです', 5, 'ja')).toEqual({ sentiment: 'positive', score: 1, method: 'rating' });
    expect(classifySentiment('👍', 3, null)).toEqual({ sentiment: 'neutral', score: 0, method: 'rating' });
    expect(classifySentiment('👎', 1, null).sentiment).toBe('negative');
  });

  it('enrichReview reads title and body together, with a score on −1…1', () => {
    const e = enrichReview({ title: 'Excelente', body: 'La mejor aplicación, muy fácil de usar.', rating: 5 });
    expect(e).toMatchObject({ text_language: 'es', sentiment: 'positive', sentiment_method: 'lexicon' });
    expect(e.sentiment_score).toBeGreaterThan(0);
    expect(e.sentiment_score).toBeLessThanOrEqual(1);
  });
});

describe("reading the language model's classes", () => {
  it('takes the JSON object out of the answer and keeps only known classes for reviews it was given', () => {
    const answer = 'Sure!\n```json\n{"results":[{"n":1,"sentiment":"Mixed"},{"n":2,"sentiment":"furious"},{"n":3,"sentiment":"neutral"},{"n":7,"sentiment":"positive"}]}\n```';
    expect([...readClasses(answer, 3)]).toEqual([
      [0, 'mixed'],
      [2, 'neutral'],
    ]);
    expect(readClasses('no idea', 3).size).toBe(0);
    expect(readClasses('{"results": 5}', 3).size).toBe(0);
  });
});
