// Topic alerts' decision (server/alerts/topics.ts), pure: a term filling the window's 1–2★ reviews far above its usual
// rate per day opens a topic; a few complaints, praise, or a term at its usual rate do not; terms sharing their reviews
// are one topic, named by the phrase holding them; an open topic closes when the term is back to its usual rate.
import { describe, expect, it } from 'vitest';
import { decideTopics } from '@/server/alerts/topics';
import { countTerms, type TermReview } from '@/server/insights/terms';
import { alertView } from '@/server/destinations/format/alertView';

const make = (prefix: string, spec: Array<[string, number, number]>): TermReview[] => {
  const out: TermReview[] = [];
  for (const [text, n, rating] of spec) for (let i = 0; i < n; i++) out.push({ id: `${prefix}${out.length}`, text, language: 'en', rating });
  return out;
};
const baseline = countTerms(make('b', [['Lovely notes and calm design', 25, 5], ['It crashes on open sometimes', 2, 3], ['Sync is slow', 3, 3]]));
const none = new Set<string>();
const decideWith = (window: TermReview[], open = none, quiet = none) =>
  decideTopics({ window: countTerms(window, undefined, { allIds: true }), baseline, baselineTotal: baseline.reviews, open, quiet });

describe('topic alerts: which terms open a topic', () => {
  it('ten 1★ "crashes on open" reviews in a day on a quiet app: one topic, named by the phrase, 140× its usual rate', () => {
    const d = decideWith(make('w', [['Crashes on open, cannot use it', 10, 1], ['Lovely notes', 1, 5]]));
    expect(d.open).toHaveLength(1);
    expect(d.open[0].signal).toMatchObject({ metric: 'topic', term: 'crashes on open', key: 'crash on open', reviews: 10, low: 10, ratio: 140 });
    expect(d.open[0].reviewIds).toHaveLength(10);
    expect(d.open[0].signal.pValue).toBeLessThan(1e-10);
  });

  it('says it in the alert the way the brief reads: term, reviews, window and rate', () => {
    const d = decideWith(make('w', [['Crashes on open, cannot use it', 10, 1]]));
    const s = d.open[0].signal;
    const view = alertView({
      episodeId: '1',
      app: { store: 'apple_app_store', appId: '1', title: 'Lumen Notes' } as never,
      scope: { kind: 'topic', value: s.key },
      since: new Date('2026-12-02T05:00:00Z'),
      signals: [{ metric: 'topic', term: s.term, forms: s.forms, reviews: s.reviews, low: s.low, usualPerDay: s.usualPerDay, ratio: s.ratio, baselineDays: s.baselineDays }],
      concentration: [],
      cited: [],
      inboxUrl: 'https://arb.test/dashboard/reviews',
    });
    expect(view.title).toBe('⚠️ “crashes on open” rising in 1–2★ reviews of Lumen Notes');
    expect(view.what).toEqual(['“crashes on open” in 10 reviews in the last 24 h, 140× its usual rate']);
  });

  it('a few complaints, praise, or a term at its usual rate open nothing', () => {
    expect(decideWith(make('w', [['Crashes on open', 3, 1], ['Lovely notes', 2, 5]])).open).toEqual([]);
    expect(decideWith(make('w', [['Gorgeous widgets everywhere', 12, 5]])).open).toEqual([]);
    // "sync slow": 3 in 28 days is usual at one a day or so; 1 today is not news, even at 1★.
    expect(decideWith(make('w', [['Sync is slow', 1, 1], ['Lovely notes', 3, 5]])).open).toEqual([]);
  });

  it('an app without a past has no usual rate', () => {
    const d = decideTopics({ window: countTerms(make('w', [['Crashes on open', 10, 1]]), undefined, { allIds: true }), baseline: countTerms([]), baselineTotal: 0, open: none, quiet: none });
    expect(d.open).toEqual([]);
  });

  it('an open or recently closed topic does not open again; an open one closes once the term is back to usual', () => {
    const burst = make('w', [['Crashes on open, cannot use it', 10, 1]]);
    const open = new Set(['crash on open']);
    const still = decideWith(burst, open);
    expect(still.open).toEqual([]);
    expect(still.close).toEqual([]);
    // Its words alone are the same incident, not a new topic.
    expect(still.found).toEqual([]);
    expect(decideWith(burst, none, open).open).toEqual([]);
    const over = decideWith(make('w', [['Lovely notes', 4, 5]]), open);
    expect(over.close).toEqual(['crash on open']);
  });
});
