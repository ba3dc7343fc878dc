// The review inbox through the real routes on a real database (PGlite and PostgreSQL): newest first across the
// organisation's apps, cursor pages, every filter, full-text search in any language, edits with the previous rating,
// the CSV export (quoting, formula-safe cells, the same filters), bad input, and nothing of another organisation.
import { describe, expect, test } from 'vitest';
import { sql } from 'kysely';
import { getDb } from '@/server/db/client';
import { RARE_MATCHES } from '@/server/reviews/data';
import { newOwner, memberOf } from '../helpers/orgs';
import { appWith, HOUR } from '../helpers/seedReviews';

let n = 0;
const uniq = () => `${Date.now().toString(36)}${++n}`;
import { setUpStoreApi } from '../helpers/apiWorld';
import { call } from '../helpers/request';

const w = setUpStoreApi();

type Review = {
  id: string;
  app_key: string;
  title: string;
  content_title: string | null;
  content_body: string;
  content_rating: number;
  content_updated_at: string;
  country: string | null;
  language: string | null;
  sentiment: string | null;
  reply_text: string | null;
  reply_state: string;
  version: string | null;
  edited: boolean;
  previous_rating: number | null;
  author_display_name: string;
};
type Page = { data: Review[]; has_more: boolean; next_cursor: string | null };

const inbox = (token: string, query = '') => call<Review[]>(w.api, 'GET', `/api/v1/org/reviews${query}`, undefined, { token });
const bodies = async (token: string, query = '') => {
  const r = await inbox(token, query);
  expect(r.status, r.text).toBe(200);
  return r.json.data.map((x) => x.content_body);
};

describe('GET /api/v1/org/reviews', () => {
  test("newest first across the organisation's apps, in cursor pages, and nothing of another organisation", async () => {
    const owner = await newOwner();
    const member = await memberOf(owner, 'member');
    const stranger = await newOwner('stranger');
    await appWith(owner, 'apple_app_store', [1, 3, 5, 7].map((h) => ({ body: `ios ${h}h`, hoursAgo: h })));
    await appWith(owner, 'google_play_store', [2, 4, 6].map((h) => ({ body: `play ${h}h`, hoursAgo: h })));
    await appWith(stranger, 'apple_app_store', [{ body: 'not yours', hoursAgo: 0.5 }]);

    const all = ['ios 1h', 'play 2h', 'ios 3h', 'play 4h', 'ios 5h', 'play 6h', 'ios 7h'];
    expect(await bodies(member.token)).toEqual(all);
    expect(await bodies(stranger.token)).toEqual(['not yours']);

    const seen: string[] = [];
    let cursor: string | null = null;
    for (let pages = 0; pages < 10; pages++) {
      const r = await call<Review[]>(w.api, 'GET', `/api/v1/org/reviews?limit=3${cursor ? `&starting_after=${cursor}` : ''}`, undefined, { token: owner.token });
      expect(r.status, r.text).toBe(200);
      const page = r.json as unknown as Page;
      seen.push(...page.data.map((x) => x.content_body));
      expect(page.has_more).toBe(seen.length < all.length);
      cursor = page.next_cursor;
      if (!page.has_more) break;
    }
    expect(seen).toEqual(all);
  });

  test('filters: app, store, rating, country, language, sentiment, replied, date range — alone and together', async () => {
    const owner = await newOwner();
    const ios = await appWith(owner, 'apple_app_store', [
      { body: 'a', rating: 1, country: 'us', language: 'en', sentiment: 'negative', hoursAgo: 1 },
      { body: 'b', rating: 2, country: 'gb', language: 'en', reply: 'Thanks!', hoursAgo: 30 },
      { body: 'c', rating: 5, country: 'de', language: 'de', sentiment: 'positive', hoursAgo: 80 },
    ]);
    await appWith(owner, 'google_play_store', [
      { body: 'd', rating: 1, country: 'us', language: 'pt-BR', reply: 'Fixed', hoursAgo: 2 },
      { body: 'e', rating: 4, country: 'fr', language: 'fr', hoursAgo: 50 },
    ]);
    const t = owner.token;
    expect(await bodies(t, `?app=${ios}`)).toEqual(['a', 'b', 'c']);
    expect(await bodies(t, '?store=google_play_store')).toEqual(['d', 'e']);
    expect(await bodies(t, '?rating=1,2')).toEqual(['a', 'd', 'b']);
    expect(await bodies(t, '?country=US,gb')).toEqual(['a', 'd', 'b']);
    expect(await bodies(t, '?language=pt-BR,de')).toEqual(['d', 'c']);
    expect(await bodies(t, '?sentiment=negative,positive')).toEqual(['a', 'c']);
    expect(await bodies(t, '?replied=true')).toEqual(['d', 'b']);
    expect(await bodies(t, '?replied=false')).toEqual(['a', 'e', 'c']);
    const day = (hoursAgo: number) => new Date(Date.now() - hoursAgo * HOUR).toISOString();
    expect(await bodies(t, `?from=${day(40)}&to=${day(1.5)}`)).toEqual(['d', 'b']);
    expect(await bodies(t, `?from=${Math.floor((Date.now() - 60 * HOUR) / 1000)}`)).toEqual(['a', 'd', 'b', 'e']);
    expect(await bodies(t, '?rating=1&country=us&replied=false')).toEqual(['a']);
    expect(await bodies(t, `?app=${ios}&rating=1,5&language=de`)).toEqual(['c']);
  });

  test('full-text search finds words of the title or text in any language, phrases, and combines with filters', async () => {
    const owner = await newOwner();
    await appWith(owner, 'apple_app_store', [
      { title: 'Crashes on launch', body: 'Since the update it closes at once', rating: 1, hoursAgo: 1 },
      { title: 'Überraschend gut', body: 'Die App ist wirklich hilfreich', rating: 5, country: 'de', language: 'de', hoursAgo: 2 },
      { title: 'Отлично', body: 'Очень удобное приложение', rating: 5, country: 'ru', language: 'ru', hoursAgo: 3 },
      { body: 'The sync crashes sometimes but support helped', rating: 3, hoursAgo: 4 },
    ]);
    const t = owner.token;
    expect(await bodies(t, '?q=crashes')).toEqual(['Since the update it closes at once', 'The sync crashes sometimes but support helped']);
    expect(await bodies(t, '?q=CRASHES&rating=1')).toEqual(['Since the update it closes at once']);
    expect(await bodies(t, `?q=${encodeURIComponent('überraschend')}`)).toEqual(['Die App ist wirklich hilfreich']);
    expect(await bodies(t, `?q=${encodeURIComponent('удобное')}`)).toEqual(['Очень удобное приложение']);
    expect(await bodies(t, `?q=${encodeURIComponent('"support helped"')}`)).toEqual(['The sync crashes sometimes but support helped']);
    expect(await bodies(t, `?q=${encodeURIComponent('crashes -sync')}`)).toEqual(['Since the update it closes at once']);
    expect(await bodies(t, '?q=nothinglikethis')).toEqual([]);
  });

  test('each review: stars, title, text, author, country, version, date, reply, and "edited" with the previous rating', async () => {
    const owner = await newOwner();
    const key = await appWith(owner, 'apple_app_store', [{ title: 'Better now', body: 'They fixed it', rating: 4, reply: 'Glad to hear', hoursAgo: 1, version: '2.3.1' }]);
    const db = await getDb();
    const review = await db.selectFrom('reviews').select('id').where('app_key', '=', key).executeTakeFirstOrThrow();
    await db.insertInto('review_versions').values({ review_id: review.id, version: 0, rating: 1, title: 'Broken', body: 'Crashes', updated_at: new Date(Date.now() - 5 * HOUR) }).execute();
    await db.updateTable('reviews').set({ version: 1 }).where('id', '=', review.id).execute();

    const [r] = (await inbox(owner.token)).json.data;
    expect(r).toMatchObject({
      app_key: key,
      title: `App ${key.split('__')[1]}`,
      content_title: 'Better now',
      content_body: 'They fixed it',
      content_rating: 4,
      author_display_name: 'Author They fix',
      country: 'us',
      version: '2.3.1',
      reply_text: 'Glad to hear',
      reply_state: 'published',
      edited: true,
      previous_rating: 1,
    });
    expect(Date.parse(r.content_updated_at)).toBeGreaterThan(Date.now() - 2 * HOUR);
  });

  test('bad input is a 400 naming the field; an app of another organisation a 404; no session a 401', async () => {
    const owner = await newOwner();
    const stranger = await newOwner('stranger');
    const theirs = await appWith(stranger, 'apple_app_store', [{ body: 'x', hoursAgo: 1 }]);
    const cases: Array<[string, RegExp]> = [
      ['?rating=6', /rating: "6" is not a star rating/],
      ['?country=usa', /country: "usa" is not a two-letter country code/],
      ['?replied=maybe', /replied must be true or false/],
      ['?from=yesterday', /from must be a date/],
      ['?starting_after=nonsense', /starting_after: not a cursor/],
      ['?limit=0', /limit must be 1 to 100/],
      ['?store=itunes', /store/],
      ['?app=nope', /app: "nope" is not an app key/],
      [`?q=${'x'.repeat(201)}`, /at most 200 characters/],
    ];
    for (const [query, message] of cases) {
      const r = await inbox(owner.token, query);
      expect(r.status, query).toBe(400);
      expect(r.json.error.message).toMatch(message);
    }
    const foreign = await inbox(owner.token, `?app=${theirs}`);
    expect(foreign.status).toBe(404);
    expect(foreign.json.error.message).toMatch(/not an app of your organisation/);
    expect((await call(w.api, 'GET', `/api/v1/org/reviews/export.csv?app=${theirs}`, undefined, { token: owner.token })).status).toBe(404);
    expect((await call(w.api, 'GET', '/api/v1/org/reviews', undefined, {})).status).toBe(401);
    expect((await call(w.api, 'GET', '/api/v1/org/reviews/export.csv', undefined, {})).status).toBe(401);
  });
});

describe('GET /api/v1/org/reviews/export.csv', () => {
  test('the current view as CSV: a header row, every cell quoted, formulas defused, the filters applied', async () => {
    const owner = await newOwner();
    const member = await memberOf(owner, 'member');
    await appWith(owner, 'apple_app_store', [
      { title: '=HYPERLINK("http://evil.test","click")', body: 'Line one\nline "two", with comma', rating: 1, hoursAgo: 1 },
      { title: '+1 great', body: '@everyone -5 stars', rating: 2, hoursAgo: 2 },
      { body: 'five stars, not exported with rating=1,2', rating: 5, hoursAgo: 3 },
    ]);
    const r = await call(w.api, 'GET', '/api/v1/org/reviews/export.csv?rating=1,2', undefined, { token: member.token });
    expect(r.status, r.text).toBe(200);
    expect(r.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(r.headers.get('content-disposition')).toMatch(/^attachment; filename="reviews-\d{4}-\d{2}-\d{2}\.csv"$/);
    const text = r.text.replace(/^\ufeff/, '');
    const records = text.split('\r\n').filter(Boolean);
    expect(records[0]).toMatch(/^"id","app","app_store","app_id","rating",/);
    expect(records).toHaveLength(1 + 2); // the header and two reviews (a line break inside a cell is a bare \n, quoted)
    expect(text).toContain(`"'=HYPERLINK(""http://evil.test"",""click"")"`);
    expect(text).toContain('"Line one\nline ""two"", with comma"');
    expect(text).toContain(`"'+1 great"`);
    expect(text).toContain(`"'@everyone -5 stars"`);
    expect(text).not.toContain('five stars');
  });

  test('streams more than one batch, in order', async () => {
    const owner = await newOwner();
    const key = await appWith(owner, 'google_play_store', []);
    const db = await getDb();
    await sql`insert into reviews (app_key, store, store_review_id, author_name, body, rating, updated_at, country, language)
              select ${key}, 'google_play_store', ${`bulk${uniq()}-`} || g, 'Bulk', 'bulk review ' || g, 1 + g % 5, now() - g * interval '1 minute', 'us', 'en'
                from generate_series(1, 2500) g`.execute(db);
    const r = await call(w.api, 'GET', '/api/v1/org/reviews/export.csv', undefined, { token: owner.token });
    expect(r.status).toBe(200);
    const lines = r.text.split('\r\n').filter(Boolean);
    expect(lines).toHaveLength(2501);
    expect(lines[1]).toContain('"bulk review 1"');
    expect(lines[2500]).toContain('"bulk review 2500"');
  });

  test('a word in more reviews than RARE_MATCHES is found by walking the newest reviews, a rare one from the GIN index', async () => {
    const owner = await newOwner();
    const key = await appWith(owner, 'apple_app_store', []);
    const db = await getDb();
    await sql`insert into reviews (app_key, store, store_review_id, author_name, body, rating, updated_at, country, language)
              select ${key}, 'apple_app_store', ${`many${uniq()}-`} || g, 'Many', 'common word ' || g, 1 + g % 5, now() - g * interval '1 second', 'us', 'en'
                from generate_series(1, ${RARE_MATCHES + 500}::int) g`.execute(db);
    // PGlite ran that in this process for seconds: let the server's keep-alive timer close the idle connections it
    // owes before the next request, which would otherwise race it on a reused socket (ECONNRESET).
    await new Promise((r) => setTimeout(r, 100));
    expect(await bodies(owner.token, '?q=common&limit=3')).toEqual(['common word 1', 'common word 2', 'common word 3']);
    expect(await bodies(owner.token, '?q=common&rating=3&limit=2')).toEqual(['common word 2', 'common word 7']);
    expect(await bodies(owner.token, `?q=word%20${RARE_MATCHES + 1}`)).toEqual([`common word ${RARE_MATCHES + 1}`]);
    // A second app whose matches are all older than one match of the first app's that lies beyond the walk's budget
    // (RARE_MATCHES / 2 reviews an app): the walk alone would give the second app's; the page must start with the first's.
    const other = await appWith(owner, 'google_play_store', []);
    await sql`update reviews set body = 'common word zebra' where app_key = ${key} and body = ${`common word ${RARE_MATCHES - 1000}`}`.execute(db);
    await sql`insert into reviews (app_key, store, store_review_id, author_name, body, rating, updated_at, country, language)
              select ${other}, 'google_play_store', ${`zebra${uniq()}-`} || g, 'Zebra', 'zebra ' || g, 5, t.newest - (${RARE_MATCHES} + g) * interval '1 second', 'us', 'en'
                from generate_series(1, 5) g, (select max(updated_at) as newest from reviews where app_key = ${key}) t`.execute(db);
    const zebras = ['common word zebra', 'zebra 1', 'zebra 2', 'zebra 3', 'zebra 4', 'zebra 5'];
    expect(await bodies(owner.token, '?q=zebra')).toEqual(zebras);
    expect(await bodies(owner.token, '?q=zebra&limit=1')).toEqual(zebras.slice(0, 1));
    // The newest matches of both apps lie within the walk: read by walking, merged across the apps.
    await sql`insert into reviews (app_key, store, store_review_id, author_name, body, rating, updated_at, country, language)
              select ${other}, 'google_play_store', ${`fresh${uniq()}-`} || g, 'Fresh', 'common fresh ' || g, 5, t.newest - (g * 2 - 0.5) * interval '1 second', 'us', 'en'
                from generate_series(1, 3) g, (select max(updated_at) as newest from reviews where app_key = ${key}) t`.execute(db);
    expect(await bodies(owner.token, '?q=common&limit=5')).toEqual(['common word 1', 'common word 2', 'common fresh 1', 'common word 3', 'common word 4']);
  });
});
