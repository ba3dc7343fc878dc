// The checks on a language model's summary, pure: only ids of the reviews it was shown survive, a theme needs one,
// counts are the server's, quotes are the reviews' own words, and an answer out of form is refused.
import { describe, expect, it } from 'vitest';
import type { PeriodReview } from '@/server/insights/data';
import { checkAnswer } from '@/server/insights/llmSummary';

const review = (id: string, body: string, rating = 3): PeriodReview => ({ id, title: null, body, rating, language: 'en', sentiment: null, app_version: '1.0', updated_at: new Date() });
const shown = [review('1', 'Crashes on start', 1), review('2', 'Crashes when syncing', 2), review('3', 'Lovely design', 5)];

describe('checking the model’s summary', () => {
  it('keeps only ids it was shown (numbers or strings, each once), drops themes left without one, counts what remains', () => {
    const answer = JSON.stringify({
      overview: 'o',
      themes: [
        { title: 'Design', summary: 'liked', review_ids: ['3'] },
        { title: 'Crashes', summary: 'many', review_ids: [1, '2', '2', '77'] },
        { title: 'Made up', summary: 'x', review_ids: ['88', '99'] },
      ],
      changes: 'c',
    });
    const checked = checkAnswer(`Sure! ${answer} Hope this helps.`, shown)!;
    expect(checked.themes.map((t) => [t.title, t.reviews, t.review_ids])).toEqual([
      ['Crashes', 2, ['1', '2']],
      ['Design', 1, ['3']],
    ]);
    expect(checked.dropped_citations).toBe(3);
    expect(checked.read).toBe(3);
    expect(checked.themes[0].quotes.map((q) => q.text)).toEqual(['Crashes on start', 'Crashes when syncing']);
  });

  it('refuses an answer that is not the JSON asked for', () => {
    expect(checkAnswer('No JSON here', shown)).toBeNull();
    expect(checkAnswer('{"themes": "not a list"', shown)).toBeNull();
    expect(checkAnswer('[1, 2]', shown)).toBeNull();
  });

  it('tolerates missing parts: no themes is an empty list', () => {
    expect(checkAnswer('{"overview":"only this"}', shown)).toMatchObject({ overview: 'only this', themes: [], changes: '' });
  });
});
