// cleanText: what PostgreSQL refuses (U+0000) and what is not text at all (a lone surrogate) never leave an adapter,
// and text without either is returned as it came (the same string, no copy). Each store's parser applies it to every
// text field it reads; the worker test tests/worker/unstorableText.test.ts takes the same text through a poll.
import { describe, expect, test } from 'vitest';
import { cleanReview, cleanText } from '@/server/sources/cleanText';
import { parseFeedPage } from '@/server/sources/appStoreFeed';
import { parseCustomerReviews } from '@/server/sources/appStoreConnect';
import { parsePlayReviews } from '@/server/sources/playDeveloper';
import { parseReviewsPage } from '@/server/sources/playPublic';
import { parsePlayDetails } from '@/server/apps/googlePlayParse';
import { quoteText } from '@/server/insights/extractive';
import { renderDetailsPage, type PlayApp } from '../../fakes/googlePlayPages';

const ODD = 'a\u0000b \uD800 c \uDC00 d \uD83D\uDE00 e';
const CLEAN = 'ab \uFFFD c \uFFFD d \uD83D\uDE00 e';

describe('cleanText', () => {
  test('removes NUL, replaces lone surrogates, keeps surrogate pairs (emoji) and everything else', () => {
    expect(cleanText(ODD)).toBe(CLEAN);
    expect(cleanText('\uDE00\uD83D')).toBe('\uFFFD\uFFFD'); // a pair in the wrong order is two lone halves
    expect(cleanText('\u0000\u0000')).toBe('');
    expect(cleanText('trailing \uD83D')).toBe('trailing \uFFFD');
    const plain = 'Ça marche très bien 👍 — 5/5\t\n';
    expect(cleanText(plain)).toBe(plain);
    expect(cleanText('')).toBe('');
  });

  test('cleanReview: an optional field that held only NUL is null, as if the store sent none', () => {
    const review = cleanReview({
      store: 'apple_app_store', appId: '1', storeReviewId: 'r\u00001', country: 'us', language: null, authorName: ODD,
      title: '\u0000', body: ODD, rating: 5, appVersion: '\u0000', createdAt: null, updatedAt: new Date(0), replyText: '', replyUpdatedAt: null, permalink: null,
    });
    expect(review).toMatchObject({ storeReviewId: 'r1', authorName: CLEAN, title: null, body: CLEAN, appVersion: null, replyText: '' });
  });
});

describe('every store format comes out clean', () => {
  test('App Store feed (RSS JSON)', () => {
    const doc = JSON.parse(JSON.stringify({
      feed: {
        updated: { label: '2026-11-30T10:00:00-07:00' },
        entry: { id: { label: '11' }, title: { label: ODD }, content: { label: ODD }, author: { name: { label: ODD } }, 'im:rating': { label: '4' }, 'im:version': { label: `1.0${'\u0000'}` }, updated: { label: '2026-11-30T09:00:00-07:00' } },
      },
    }));
    const [r] = parseFeedPage(doc, '1', 'us').reviews;
    expect(r).toMatchObject({ title: CLEAN, body: CLEAN, authorName: CLEAN, appVersion: '1.0' });
  });

  test('App Store Connect (JSON:API, with the published response)', () => {
    const [r] = parseCustomerReviews({
      data: [{ type: 'customerReviews', id: 'x', attributes: { rating: 2, title: ODD, body: ODD, reviewerNickname: ODD, createdDate: '2026-11-30T10:00:00Z', territory: 'USA' }, relationships: { response: { data: { type: 'customerReviewResponses', id: 'p' } } } }],
      included: [{ type: 'customerReviewResponses', id: 'p', attributes: { responseBody: ODD, lastModifiedDate: '2026-11-30T11:00:00Z', state: 'PUBLISHED' } }],
    }, '1');
    expect(r).toMatchObject({ title: CLEAN, body: CLEAN, authorName: CLEAN, replyText: CLEAN });
  });

  test('Google Play (batchexecute tuples)', () => {
    const tuple = ['gp:1', [ODD], 3, null, ODD, [1764500000, 0], 0, [null, ODD, [1764500100, 0]], null, null, `2.0${'\u0000'}`];
    const text = `)]}'\n\n${JSON.stringify([['wrb.fr', 'UsvDTd', JSON.stringify([[tuple]]), null, null, null, 'generic']])}`;
    const [r] = parseReviewsPage(text, 'com.example.app', 'en').reviews;
    expect(r).toMatchObject({ body: CLEAN, authorName: CLEAN, replyText: CLEAN, appVersion: '2.0' });
  });

  test('Google Play Developer API (title and body joined by a tab, developer comment)', () => {
    const [r] = parsePlayReviews({
      reviews: [{ reviewId: 'gp:2', authorName: ODD, comments: [{ userComment: { text: `${ODD}\t${ODD}`, starRating: 1, lastModified: { seconds: '1764500000' } } }, { developerComment: { text: ODD, lastModified: { seconds: '1764500100' } } }] }],
    }, 'com.example.app');
    expect(r).toMatchObject({ title: CLEAN, body: CLEAN, authorName: CLEAN, replyText: CLEAN });
  });
});

describe('app names from the store pages', () => {
  test('a Google Play details page: title, developer and summary come out clean', () => {
    const app: PlayApp = {
      appId: 'com.example.odd', title: `Odd${'\u0000'} App \uD800`, developer: `Odd${'\u0000'} Inc`, developerId: '1', icon: 'https://play-lh.googleusercontent.com/icon',
      headerImage: null, score: 4.5, ratings: 10, reviews: 5, installs: '1,000+', minInstalls: 1000, maxInstalls: 5000, summary: `Sum${'\u0000'}mary`,
      description: 'Description', genre: 'Tools', genreId: 'TOOLS', version: '1.0', androidVersion: '8.0', priceMicros: 0, currency: 'USD',
      contentRating: 'Everyone', released: 'Jan 1, 2020', releasedSeconds: 1577836800, updatedSeconds: 1764500000, recentChanges: '', website: null, email: 'dev@example.com',
    };
    const details = parsePlayDetails(renderDetailsPage(app), { appId: app.appId, country: 'us', storeUrl: 'https://play.google.com/store/apps/details?id=com.example.odd' });
    expect(details).toMatchObject({ title: 'Odd App \uFFFD', developer: 'Odd Inc', summary: 'Summary' });
  });
});

describe('review text cut for a jsonb column', () => {
  test('a summary quote cut at its length limit never ends in half an emoji (jsonb refuses a lone surrogate)', () => {
    for (let pad = 270; pad <= 282; pad++) {
      const quote = quoteText({ title: null, body: `${'a'.repeat(pad)}${'😀'.repeat(10)}` });
      expect(cleanText(quote), `pad ${pad}`).toBe(quote);
      expect(() => JSON.parse(JSON.stringify(quote))).not.toThrow();
    }
  });
});
