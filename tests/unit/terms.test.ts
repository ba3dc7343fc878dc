// Words and phrases of reviews per language, and which rise or fall between two periods (log-odds with an
// informative prior): stop words per language, phrases within a clause, counts once per review, minimum counts, and a
// score that does not call noise a trend.
import { describe, expect, it } from 'vitest';
import { compareTerms, countTerms, logOddsZ, termSearch, type TermReview } from '@/server/insights/terms';
import { clauses, reviewTerms } from '@/server/insights/tokens';
import { stopWordsFor } from '@/server/insights/stopwords';

const sorted = (s: Set<string>) => [...s].sort();

describe('the words of a review', () => {
  it('cuts words as the inbox search does: at apostrophes, hyphens and punctuation, lower-cased', () => {
    expect(clauses("Don't UPDATE: wi-fi broken. Really!")).toEqual([['don', 't', 'update'], ['wi', 'fi', 'broken'], ['really']]);
  });

  it('leaves out the stop words of the review language, numbers, single letters and the words for "app"', () => {
    expect(sorted(reviewTerms('The app keeps crashing after the update to 2.0, I cannot log in', 'en').words)).toEqual(
      ['crashing', 'keeps', 'log', 'update'].sort(),
    );
    expect(sorted(reviewTerms('Die App stürzt ständig ab und der Akku ist leer', 'de').words)).toEqual(['akku', 'leer', 'ständig', 'stürzt'].sort());
    expect(sorted(reviewTerms("L'application plante depuis la mise à jour", 'fr').words)).toEqual(['jour', 'mise', 'plante'].sort());
    expect(sorted(reviewTerms('La aplicación se cierra sola y la batería dura poco', 'es').words)).toEqual(['batería', 'cierra', 'dura'].sort());
  });

  it("keeps the English words reviews are made of that stopwords-iso's English list drops", () => {
    expect(stopWordsFor('en').has('working')).toBe(false);
    expect(stopWordsFor('en').has('the')).toBe(true);
    expect(reviewTerms('Stopped working, blank page', 'en').phrases).toEqual(new Set(['stopped working', 'blank page']));
  });

  it('makes phrases of neighbouring words in one clause only, never across punctuation or a stop word', () => {
    const t = reviewTerms('Battery drain. Drain battery and sync fails', 'en');
    expect(sorted(t.phrases)).toEqual(['battery drain', 'drain battery', 'sync fails'].sort());
    expect(t.phrases.has('drain drain')).toBe(false);
  });

  it('an unknown or unlisted language gets the English list; pt-BR uses the Portuguese one', () => {
    expect(stopWordsFor(null)).toBe(stopWordsFor('en'));
    expect(stopWordsFor('xx')).toBe(stopWordsFor('en'));
    expect(stopWordsFor('pt-BR').has('não')).toBe(true);
  });

  it('segments languages written without spaces', () => {
    expect(reviewTerms('電池の消耗が激しい', 'ja').words).toEqual(new Set(['電池', '消耗', '激しい']));
    expect(reviewTerms('这个应用经常崩溃', 'zh').words.has('崩溃')).toBe(true);
  });

  it('leaves out extra words such as the app name', () => {
    expect(reviewTerms('Spotify skips songs', 'en', new Set(['spotify'])).words).toEqual(new Set(['skips', 'songs']));
  });
});

describe('counting terms', () => {
  it('counts each term once per review and keeps a few example reviews', () => {
    const c = countTerms([
      { id: '1', text: 'crash crash crash', language: 'en' },
      { id: '2', text: 'Crash on login', language: 'en' },
      { id: '3', text: 'fine', language: 'en' },
    ]);
    expect(c.reviews).toBe(3);
    expect(c.counts.get('crash')).toBe(2);
    expect(c.examples.get('crash')).toEqual(['1', '2']);
  });
});

describe('the log-odds score', () => {
  it('does not call a handful of mentions a trend, does call a clear shift one', () => {
    expect(logOddsZ(3, 20, 0, 20)).toBeLessThan(1.96);
    expect(logOddsZ(10, 100, 0, 100)).toBeGreaterThan(1.96);
    expect(logOddsZ(20, 200, 2, 200)).toBeGreaterThan(3);
  });

  it('is symmetric, zero for equal shares and zero without a previous period', () => {
    expect(logOddsZ(10, 100, 0, 100)).toBeCloseTo(-logOddsZ(0, 100, 10, 100), 10);
    expect(logOddsZ(10, 100, 20, 200)).toBeCloseTo(0, 10);
    expect(logOddsZ(30, 100, 0, 0)).toBe(0);
  });
});

const reviews = (prefix: string, spec: Array<[string, number]>): TermReview[] => {
  const out: TermReview[] = [];
  for (const [text, n] of spec) for (let i = 0; i < n; i++) out.push({ id: `${prefix}${out.length}`, text, language: 'en' });
  return out;
};

describe('rising and falling terms', () => {
  const previous = countTerms(reviews('p', [['Great music, easy playlists', 60], ['Offline mode is handy', 30], ['Lyrics wrong', 2], ['fine', 8]]));
  const current = countTerms(reviews('c', [['Great music, easy playlists', 60], ['Battery drain since update', 25], ['Lyrics wrong', 3], ['fine', 12]]));
  const r = compareTerms(current, previous);

  it('lists what rose and what fell, with counts, shares and example reviews', () => {
    expect(r.rising.map((t) => t.term)).toEqual(expect.arrayContaining(['battery drain', 'update']));
    const drain = r.rising.find((t) => t.term === 'battery drain')!;
    expect(drain).toMatchObject({ kind: 'phrase', reviews: 25, share: 0.25, previous_reviews: 0, previous_share: 0 });
    expect(drain.z).toBeGreaterThan(1.96);
    expect(drain.review_ids).toHaveLength(5);
    expect(drain.review_ids.every((id) => id.startsWith('c'))).toBe(true);
    const offline = r.falling.find((t) => t.term === 'offline mode')!;
    expect(offline).toMatchObject({ reviews: 0, previous_reviews: 30 });
    expect(offline.review_ids.every((id) => id.startsWith('p'))).toBe(true);
  });

  it('leaves out terms used as much as before, and words no more used than a listed phrase holding them', () => {
    const terms = [...r.rising, ...r.falling].map((t) => t.term);
    expect(terms).not.toContain('music');
    expect(terms).not.toContain('playlists');
    expect(terms).not.toContain('battery');
    expect(terms).not.toContain('lyrics');
  });

  it('needs a minimum number of reviews', () => {
    const few = compareTerms(countTerms(reviews('c', [['Battery drain', 2], ['fine', 18]])), countTerms(reviews('p', [['fine', 20]])));
    expect(few.rising).toEqual([]);
    const strict = compareTerms(current, previous, { minReviews: 26 });
    expect(strict.rising.map((t) => t.term)).not.toContain('battery drain');
  });

  it('the top terms are the most used now', () => {
    expect(r.top[0]).toMatchObject({ term: 'easy playlists', reviews: 60 });
  });

  it('links a phrase as a quoted search', () => {
    expect(termSearch('battery drain')).toBe('"battery drain"');
    expect(termSearch('crash')).toBe('crash');
  });
});
