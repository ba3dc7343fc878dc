// An app's ratings and trends through the real route on a real database (PGlite and PostgreSQL): the series per day
// and per ISO week with the quiet periods in it, UTC day edges, the 1–5 distribution, sentiment, by version (the most
// reviewed first, the rest summed) and by country, bad spans refused with words, and nothing of another organisation.
import { describe, expect, test } from 'vitest';
import { getDb } from '@/server/db/client';
import { STATS_TOP_VERSIONS } from '@/server/stats/appStats';
import { memberOf, newOwner, type SignedInUser } from '../helpers/orgs';
import { setUpStoreApi } from '../helpers/apiWorld';
import { call } from '../helpers/request';

const w = setUpStoreApi();

type Point = { start: string; reviews: number; average_rating: number | null; positive: number; neutral: number; negative: number; mixed: number; unclassified: number };
type Stats = {
  app: { key: string; title: string; store: string };
  from: string;
  to: string;
  interval: 'day' | 'week';
  totals: Point;
  series: Point[];
  distribution: Array<{ rating: number; reviews: number }>;
  by_version: Array<{ version: string | null; reviews: number; average_rating: number | null }>;
  by_country: Array<{ country: string | null; reviews: number; average_rating: number | null }>;
};

let n = 0;
const uniq = () => `${Date.now().toString(36)}${++n}`;
type Seed = { at: string; rating: number; country?: string | null; version?: string | null; sentiment?: string };

async function appWith(owner: SignedInUser, seeds: Seed[]): Promise<string> {
  const db = await getDb();
  const appId = String(1_600_000_000 + Math.floor(Math.random() * 1e8));
  const key = `apple_app_store__${appId}`;
  await db.insertInto('apps').values({ key, store: 'apple_app_store', app_id: appId, title: `Stats ${appId}`, icon_url: null, store_url: null, developer: null }).execute();
  await db.insertInto('org_apps').values({ org_id: owner.orgId, app_key: key, countries: ['us'], added_by: owner.userId, added_by_email: owner.email }).execute();
  for (const s of seeds) {
    await db
      .insertInto('reviews')
      .values({
        app_key: key, store: 'apple_app_store', store_review_id: `s${uniq()}`, country: s.country === undefined ? 'us' : s.country, language: 'en',
        author_name: 'A', title: null, body: 'text', rating: s.rating, app_version: s.version === undefined ? '1.0' : s.version,
        updated_at: new Date(s.at), reply_text: null, sentiment: s.sentiment ?? null, sentiment_score: null, written_at: null, reply_updated_at: null, permalink: null,
      })
      .execute();
  }
  return key;
}

const stats = (token: string, key: string, query = '') => call<Stats>(w.api, 'GET', `/api/v1/org/apps/${key}/stats${query}`, undefined, { token });

describe('GET /api/v1/org/apps/{appKey}/stats', () => {
  test('a series by day: every day of the span, quiet ones too, cut at UTC midnight; totals and the distribution', async () => {
    const owner = await newOwner();
    const key = await appWith(owner, [
      { at: '2026-03-02T00:00:00Z', rating: 5, sentiment: 'positive' },
      { at: '2026-03-02T23:59:59.999Z', rating: 2, sentiment: 'negative' },
      { at: '2026-03-03T00:00:00Z', rating: 4, sentiment: 'neutral' },
      { at: '2026-03-05T12:00:00Z', rating: 1 }, // not yet classified
      { at: '2026-03-05T13:00:00Z', rating: 3, sentiment: 'mixed' },
      { at: '2026-03-01T23:59:59Z', rating: 3 }, // the day before the span
      { at: '2026-03-06T00:00:00Z', rating: 3 }, // the day after
    ]);
    const r = await stats(owner.token, key, '?from=2026-03-02&to=2026-03-05&interval=day');
    expect(r.status, r.text).toBe(200);
    const s = r.json.data;
    expect(s).toMatchObject({ app: { key, store: 'apple_app_store' }, from: '2026-03-02', to: '2026-03-05', interval: 'day' });
    expect(s.series.map((p) => [p.start, p.reviews, p.average_rating])).toEqual([
      ['2026-03-02', 2, 3.5],
      ['2026-03-03', 1, 4],
      ['2026-03-04', 0, null],
      ['2026-03-05', 2, 2],
    ]);
    expect(s.series[0]).toMatchObject({ positive: 1, negative: 1, neutral: 0, mixed: 0, unclassified: 0 });
    expect(s.series[3]).toMatchObject({ positive: 0, negative: 0, neutral: 0, mixed: 1, unclassified: 1 });
    // The four classes and "not yet classified" add up to the count, per period and in total.
    expect(s.totals).toMatchObject({ reviews: 5, average_rating: 3, positive: 1, neutral: 1, negative: 1, mixed: 1, unclassified: 1 });
    for (const p of [...s.series, s.totals]) expect(p.positive + p.neutral + p.mixed + p.negative + p.unclassified).toBe(p.reviews);
    expect(s.distribution).toEqual([
      { rating: 1, reviews: 1 },
      { rating: 2, reviews: 1 },
      { rating: 3, reviews: 1 },
      { rating: 4, reviews: 1 },
      { rating: 5, reviews: 1 },
    ]);
  });

  test('a series by week starts on the Monday of the first day, and counts whole weeks', async () => {
    const owner = await newOwner();
    const key = await appWith(owner, [
      { at: '2026-03-01T10:00:00Z', rating: 5 }, // Sunday: the week of Monday 23 February
      { at: '2026-03-02T10:00:00Z', rating: 3 }, // Monday
      { at: '2026-03-08T23:00:00Z', rating: 4 }, // Sunday of that week
      { at: '2026-03-10T10:00:00Z', rating: 2 },
    ]);
    const r = await stats(owner.token, key, '?from=2026-03-01&to=2026-03-10&interval=week');
    expect(r.status, r.text).toBe(200);
    expect(r.json.data.series.map((p) => [p.start, p.reviews, p.average_rating])).toEqual([
      ['2026-02-23', 1, 5],
      ['2026-03-02', 2, 3.5],
      ['2026-03-09', 1, 2],
    ]);
  });

  test('by version, the most reviewed first, the rest summed; by country, unknown ones as null', async () => {
    const owner = await newOwner();
    const seeds: Seed[] = [];
    const versions = STATS_TOP_VERSIONS + 3;
    for (let v = 0; v < versions; v++) for (let i = 0; i <= v; i++) seeds.push({ at: '2026-04-01T08:00:00Z', rating: (v % 5) + 1, version: `2.${v}`, country: i % 2 ? 'gb' : 'us' });
    seeds.push({ at: '2026-04-01T09:00:00Z', rating: 4, version: null, country: null });
    const key = await appWith(owner, seeds);
    const r = await stats(owner.token, key, '?from=2026-04-01&to=2026-04-01');
    expect(r.status, r.text).toBe(200);
    const { by_version, by_country, totals } = r.json.data;
    expect(by_version).toHaveLength(STATS_TOP_VERSIONS + 1);
    expect(by_version[0]).toEqual({ version: `2.${versions - 1}`, reviews: versions, average_rating: ((versions - 1) % 5) + 1 });
    // The three least reviewed versions (1, 1 [no version] and 2 and 3 reviews) are what "other versions" sums.
    const listed = by_version.slice(0, -1).reduce((a, v) => a + v.reviews, 0);
    expect(by_version.at(-1)).toMatchObject({ version: '4 other versions', reviews: totals.reviews - listed });
    expect(by_country.map((c) => c.country)).toEqual(['us', 'gb', null]);
    expect(by_country.reduce((a, c) => a + c.reviews, 0)).toBe(totals.reviews);
  });

  test('with no dates: the last 90 days, today included', async () => {
    const owner = await newOwner();
    const key = await appWith(owner, [{ at: new Date().toISOString(), rating: 5 }, { at: new Date(Date.now() - 100 * 86_400_000).toISOString(), rating: 1 }]);
    const r = await stats(owner.token, key);
    expect(r.status, r.text).toBe(200);
    expect(r.json.data.series).toHaveLength(90);
    expect(r.json.data.to).toBe(new Date().toISOString().slice(0, 10));
    expect(r.json.data.totals).toMatchObject({ reviews: 1, average_rating: 5 });
  });

  test('members read it; another organisation gets 404 and no figures; bad input is a 400 that says why', async () => {
    const owner = await newOwner();
    const key = await appWith(owner, [{ at: '2026-03-02T10:00:00Z', rating: 5 }]);
    const member = await memberOf(owner, 'member');
    expect((await stats(member.token, key, '?from=2026-03-01&to=2026-03-03')).json.data.totals.reviews).toBe(1);

    const stranger = await newOwner('stranger');
    const theirs = await stats(stranger.token, key);
    expect(theirs.status).toBe(404);
    expect(theirs.text).not.toMatch(/Stats \d/);
    expect((await stats(stranger.token, 'apple_app_store__999999999')).status).toBe(404);
    expect((await call(w.api, 'GET', `/api/v1/org/apps/${key}/stats`)).status).toBe(401);

    const bad: Array<[string, RegExp]> = [
      ['?from=2026-03-05&to=2026-03-01', /from must be on or before to/],
      ['?from=2026-02-30', /from is not a day of the calendar/],
      ['?to=yesterday', /to must be a day like 2026-05-01/],
      ['?interval=month', /interval must be day or week/],
      ['?from=2024-01-01&to=2026-01-01', /by day covers at most 366 days: choose interval=week/],
      ['?from=2016-01-01&to=2026-01-01&interval=week', /at most 1830 days/],
    ];
    for (const [q, message] of bad) {
      const r = await stats(owner.token, key, q);
      expect(r.status, q).toBe(400);
      expect(r.json.error.message, q).toMatch(message);
    }
    expect((await stats(owner.token, 'not-a-key')).status).toBe(400);
    expect((await stats(owner.token, key, '?from=2024-01-01&to=2026-01-01&interval=week')).status).toBe(200);
  });
});
