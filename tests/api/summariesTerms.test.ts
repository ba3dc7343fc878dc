// An app's words and topics through the real route on a real database (PGlite and PostgreSQL): terms and phrases
// rising and falling against the previous period, each one's inbox search finding the reviews it counted, stop words
// per language, the plan's trends feature, bad input refused with words, and nothing of another organisation.
import { describe, expect, test } from 'vitest';
import { newOwner } from '../helpers/orgs';
import { setUpStoreApi } from '../helpers/apiWorld';
import { call } from '../helpers/request';
import { appWith, type Seed } from '../helpers/seedReviews';

const w = setUpStoreApi();

type Term = { term: string; kind: string; reviews: number; share: number; previous_reviews: number; previous_share: number; z: number; review_ids: string[]; search: string };
type Terms = {
  app: { key: string; title: string };
  from: string;
  to: string;
  reviews: number;
  capped: boolean;
  previous: { from: string; to: string; reviews: number };
  rising: Term[];
  falling: Term[];
  top: Term[];
};

const at = (day: string, hour = 12) => new Date(`${day}T${String(hour).padStart(2, '0')}:00:00Z`);
const many = (n: number, seed: (i: number) => Seed): Seed[] => Array.from({ length: n }, (_, i) => seed(i));
const terms = (token: string, key: string, query = '') => call<Terms>(w.api, 'GET', `/api/v1/org/apps/${key}/terms${query}`, undefined, { token });

/** March 1–10: offline mode praised; March 11–20: battery drain after the update. */
function twoPeriods(): Seed[] {
  const day = (i: number, from: number) => `2026-03-${String(from + (i % 10)).padStart(2, '0')}`;
  return [
    ...many(20, (i) => ({ body: 'Offline mode is handy on the train', rating: 5, at: at(day(i, 1)) })),
    ...many(20, (i) => ({ body: 'Nice music selection', rating: 4, at: at(day(i, 1)) })),
    ...many(15, (i) => ({ title: 'Battery drain', body: 'Battery drain since the last update', rating: 1, at: at(day(i, 11)) })),
    ...many(25, (i) => ({ body: 'Nice music selection', rating: 4, at: at(day(i, 11)) })),
    { body: 'Battery drain', rating: 2, at: at('2026-03-21') }, // after the period
  ];
}

describe('GET /api/v1/org/apps/{appKey}/terms', () => {
  test('terms rising and falling against the same number of days before, each linking to the reviews it counted', async () => {
    const owner = await newOwner();
    const key = await appWith(owner, 'apple_app_store', twoPeriods());
    const r = await terms(owner.token, key, '?from=2026-03-11&to=2026-03-20');
    expect(r.status, r.text).toBe(200);
    const t = r.json.data;
    expect(t).toMatchObject({ from: '2026-03-11', to: '2026-03-20', reviews: 40, capped: false, previous: { from: '2026-03-01', to: '2026-03-10', reviews: 40 } });

    const drain = t.rising.find((x) => x.term === 'battery drain');
    expect(drain).toMatchObject({ kind: 'phrase', reviews: 15, share: 0.375, previous_reviews: 0, search: '"battery drain"' });
    expect(drain!.z).toBeGreaterThan(1.96);
    expect(t.falling.map((x) => x.term)).toContain('offline mode');
    // Used as much as before: neither rising nor falling.
    expect([...t.rising, ...t.falling].map((x) => x.term)).not.toContain('music selection');
    // The app's own name and the stop words are never terms.
    const all = [...t.rising, ...t.falling, ...t.top].map((x) => x.term);
    expect(all.some((x) => /\bthe\b|\bapp\b/.test(x))).toBe(false);

    // The link: the inbox's search over the same app and days lists exactly the reviews counted.
    const inbox = await call<Array<{ id: string }>>(
      w.api, 'GET', `/api/v1/org/reviews?app=${key}&q=${encodeURIComponent(drain!.search)}&from=2026-03-11&to=2026-03-20&limit=100`, undefined, { token: owner.token },
    );
    expect(inbox.status, inbox.text).toBe(200);
    expect(inbox.json.data).toHaveLength(15);
    expect(inbox.json.data.map((x) => x.id)).toEqual(expect.arrayContaining(drain!.review_ids));
  });

  test('stop words of each review language are left out', async () => {
    const owner = await newOwner();
    const key = await appWith(owner, 'google_play_store', [
      ...many(12, (i) => ({ body: 'Die App stürzt ständig ab und der Akku ist leer', textLanguage: 'de', language: 'de', at: at(`2026-05-${String(10 + (i % 5)).padStart(2, '0')}`) })),
      ...many(12, (i) => ({ body: 'La aplicación se cierra y la batería dura poco', textLanguage: 'es', language: 'es', at: at(`2026-05-${String(10 + (i % 5)).padStart(2, '0')}`) })),
    ]);
    const r = await terms(owner.token, key, '?from=2026-05-10&to=2026-05-14');
    expect(r.status, r.text).toBe(200);
    const words = r.json.data.top.flatMap((x) => x.term.split(' '));
    expect(words).toEqual(expect.arrayContaining(['akku', 'batería']));
    for (const stop of ['und', 'der', 'die', 'ist', 'la', 'se', 'y', 'aplicación']) expect(words).not.toContain(stop);
    // No reviews before: nothing can be said to rise or fall.
    expect(r.json.data.rising).toEqual([]);
    expect(r.json.data.falling).toEqual([]);
  });

  test('the last 30 days by default; bad days and spans refused with words', async () => {
    const owner = await newOwner();
    const key = await appWith(owner, 'apple_app_store', [{ body: 'Recent', hoursAgo: 1 }]);
    const r = await terms(owner.token, key);
    expect(r.status, r.text).toBe(200);
    const today = new Date().toISOString().slice(0, 10);
    expect(r.json.data.to).toBe(today);
    expect((Date.parse(r.json.data.to) - Date.parse(r.json.data.from)) / 86_400_000).toBe(29);
    expect(r.json.data.reviews).toBe(1);

    for (const [query, words] of [
      ['?from=2026-03-20&to=2026-03-01', 'from must be on or before to'],
      ['?from=2026-02-30', 'not a day of the calendar'],
      ['?from=yesterday', 'must be a day like'],
      ['?from=2024-01-01&to=2026-01-01', 'at most 366 days'],
    ] as const) {
      const bad = await terms(owner.token, key, query);
      expect(bad.status, query).toBe(400);
      expect(bad.json.error.message).toContain(words);
    }
    expect((await terms(owner.token, 'apple_app_store__not-an-id')).status).toBe(400);
  });

  test("another organisation's app is not found; without a session 401", async () => {
    const owner = await newOwner();
    const key = await appWith(owner, 'apple_app_store', [{ body: 'Mine', hoursAgo: 1 }]);
    const stranger = await newOwner('stranger');
    expect((await terms(stranger.token, key)).status).toBe(404);
    expect((await call(w.api, 'GET', `/api/v1/org/apps/${key}/terms`)).status).toBe(401);
  });

  test("a plan without trends gets 402 naming it", async () => {
    const owner = await newOwner();
    const key = await appWith(owner, 'apple_app_store', [{ body: 'Mine', hoursAgo: 1 }]);
    w.setEnv({ SELF_HOSTED_PLAN: 'free' });
    try {
      const r = await terms(owner.token, key);
      expect(r.status).toBe(402);
      expect(r.json.error).toMatchObject({ code: 'plan_limit' });
      expect(r.json.error.message).toContain('trends');
    } finally {
      w.setEnv({});
    }
  });
});
