// Words and phrases of reviews per language, and which rise, fall or are critical between two periods: stop words per
// language, word forms grouped by stem, phrases within a clause, counts once per review, minimum counts, a small-count
// test (mid-p binomial) that sees 2 → 12 and does not call noise a trend, and terms concentrated in 1–2★ reviews.
import { describe, expect, it } from 'vitest';
import { binomialMidP, compareTerms, countTerms, formsOf, logOddsZ, risingMidP, termSearch, type TermReview } from '@/server/insights/terms';
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

describe('word forms and phrases', () => {
  it('groups the forms of a word by its stem, per language, labelled by the form most reviews use', () => {
    const c = countTerms([
      { id: '1', text: 'Crashes on open', language: 'en' },
      { id: '2', text: 'crashes every time', language: 'en' },
      { id: '3', text: 'keeps crashing', language: 'en' },
      { id: '4', text: 'it crashed twice', language: 'en' },
      { id: '5', text: 'Die App stürzt ab, ständige Abstürze', language: 'de' },
      { id: '6', text: 'Absturz beim Start', language: 'de' },
    ]);
    expect(c.counts.get('crash')).toBe(4);
    expect(formsOf(c, 'crash')).toEqual(['crashes', 'crashed', 'crashing']);
    expect(c.counts.get('absturz')).toBe(2);
    const r = compareTerms(c, countTerms([]), { minReviews: 2 });
    expect(r.top.find((t) => t.key === 'crash')).toMatchObject({ term: 'crashes', reviews: 4 });
  });

  it('finds phrases with small words inside and verbs with their particle, grouped by form', () => {
    const t = reviewTerms('Cannot sign in with Apple anymore, logging in fails', 'en');
    expect(t.phrases).toContain('sign in with apple');
    expect(t.phrases).toContain('sign in');
    expect(t.phrases).toContain('logging in');
    const c = countTerms([
      { id: '1', text: 'I cannot log in', language: 'en' },
      { id: '2', text: 'Logged in once, never again', language: 'en' },
      { id: '3', text: 'logging in takes forever', language: 'en' },
    ]);
    expect(c.counts.get('log in')).toBe(3);
    expect(formsOf(c, 'log in')).toHaveLength(3);
    // Other small words end a phrase: "drain since update" is not one.
    expect(reviewTerms('Battery drain since update', 'en').phrases).toEqual(new Set(['battery drain']));
  });

  it("searches every form of a term in the inbox's websearch syntax", () => {
    expect(termSearch('crashes', ['crashes', 'crash', 'crashing'])).toBe('crashes or crash or crashing');
    expect(termSearch('log in', ['log in', 'logged in'])).toBe('"log in" or "logged in"');
  });
});

const rated = (prefix: string, spec: Array<[string, number, number, string?]>): TermReview[] => {
  const out: TermReview[] = [];
  for (const [text, n, rating, sentiment] of spec)
    for (let i = 0; i < n; i++) out.push({ id: `${prefix}${out.length}`, text, language: 'en', rating, sentiment: sentiment ?? null });
  return out;
};

describe('rising and falling on small counts (mid-p binomial test)', () => {
  it('calls "crashes" going from 2 to 12 reviews in a week of a small app rising (the bug of issue 31)', () => {
    const before = countTerms(rated('p', [['Crashes sometimes', 2, 2], ['Nice notes, good sync', 14, 5], ['Too expensive', 4, 3]]));
    const now = countTerms(rated('c', [['Crashes on open', 7, 1, 'negative'], ['It crashes constantly', 5, 1, 'negative'], ['Nice notes, good sync', 6, 5], ['Too expensive', 2, 3]]));
    const r = compareTerms(now, before);
    const crash = r.rising.find((t) => t.key === 'crash')!;
    expect(crash).toMatchObject({ term: 'crashes', reviews: 12, previous_reviews: 2, low_reviews: 12, low_share: 1 });
    expect(crash.sentiment).toEqual({ positive: 0, neutral: 0, negative: 12, mixed: 0 });
    expect(crash.p_value).toBeLessThan(0.01);
    expect(r.critical.map((t) => t.key)).toContain('crash');
    expect(r.critical.map((t) => t.key)).not.toContain('nice');
  });

  it('does not call a handful of mentions a trend: 3 against 0, 6 against 3 in equal periods', () => {
    expect(risingMidP(3, 20, 0, 20)).toBeGreaterThan(0.05);
    expect(risingMidP(6, 20, 3, 20)).toBeGreaterThan(0.05);
    expect(risingMidP(5, 20, 0, 20)).toBeLessThan(0.05);
    expect(risingMidP(12, 20, 2, 20)).toBeLessThan(0.01);
  });

  it('accounts for the volume: twice the reviews with twice the mentions is no rise', () => {
    expect(risingMidP(20, 200, 10, 100)).toBeGreaterThan(0.4);
    const r = compareTerms(countTerms(rated('c', [['slow sync', 20, 3], ['fine', 180, 5]])), countTerms(rated('p', [['slow sync', 10, 3], ['fine', 90, 5]])));
    expect(r.rising).toEqual([]);
    expect(r.falling).toEqual([]);
  });

  it('mid-p is half the observed probability below the exact tail', () => {
    // Binomial(4, 0.5): P(X ≥ 4) = 1/16, P(X = 4) = 1/16 → mid-p 1/32.
    expect(binomialMidP(4, 4, 0.5)).toBeCloseTo(1 / 32, 10);
    expect(binomialMidP(0, 4, 0.5)).toBeCloseTo(1 - 1 / 32, 10);
  });

  it('finds falling terms the same way, with the previous period as the examples', () => {
    const r = compareTerms(countTerms(rated('c', [['fine', 20, 5]])), countTerms(rated('p', [['Login broken', 9, 1], ['fine', 11, 5]])));
    const login = r.falling.find((t) => t.key === 'login broken')!;
    expect(login).toMatchObject({ reviews: 0, previous_reviews: 9 });
    expect(login.p_value).toBeLessThan(0.05);
    expect(login.review_ids.every((id) => id.startsWith('p'))).toBe(true);
  });
});

describe('critical terms', () => {
  it('lists terms concentrated in 1–2★ reviews, not those as low as the app', () => {
    const c = countTerms(rated('c', [['Refund refused, support ignores', 6, 1], ['Great design, love the widgets', 30, 5], ['Sync is okay', 4, 4], ['Great design but pricey', 3, 2]]));
    const r = compareTerms(c, countTerms([]));
    expect(r.critical.map((t) => t.term)).toEqual(expect.arrayContaining(['refund refused']));
    expect(r.critical.map((t) => t.key)).not.toContain('great design');
    // An app whose reviews are all 1★ has nothing standing out.
    const all = compareTerms(countTerms(rated('c', [['Refund refused', 6, 1], ['Terrible', 20, 1]])), countTerms([]));
    expect(all.critical).toEqual([]);
  });

  it('needs a minimum number of 1–2★ reviews', () => {
    const r = compareTerms(countTerms(rated('c', [['Refund refused', 2, 1], ['Great design', 30, 5]])), countTerms([]));
    expect(r.critical).toEqual([]);
  });
});
