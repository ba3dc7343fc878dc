// Ask ARB's question reading, without a language model: filters (dates from `now` in UTC, stars, version, country,
// language, sentiment, apps of the scope), the intent and the topic, and follow-ups that keep the previous filters.
import { describe, expect, test } from 'vitest';
import { parseQuestion, textQuery } from '@/server/askArb/question';
import type { AskFilters, AskScope } from '@/server/askArb/types';

const scope: AskScope = {
  orgId: 'org_1',
  apps: [
    { appStore: 'apple_app_store', appId: '1500000001', title: 'Habit Tracker' },
    { appStore: 'google_play_store', appId: 'com.example.notes', title: 'Notes' },
  ],
};
// A Wednesday late in the evening UTC: relative dates are UTC days, whatever the server's zone.
const now = new Date('2026-11-25T23:30:00Z');
const parse = (text: string, previous?: AskFilters, at = now) => parseQuestion(text, { scope, now: at, previous });

describe('the questions of the brief', () => {
  test('how many 1-star reviews last week: the calendar week before (Monday to Sunday), 1 star, a count', () => {
    expect(parse('How many 1-star reviews last week?')).toEqual({ filters: { from: '2026-11-16', to: '2026-11-22', ratings: [1] }, intent: 'count' });
  });
  test('average rating of version 2.3 in Germany', () => {
    expect(parse('What is the average rating of version 2.3 in Germany?')).toEqual({ filters: { version: '2.3', country: 'DE' }, intent: 'average' });
  });
  test('show me reviews about login', () => {
    expect(parse('Show me reviews about login')).toEqual({ filters: {}, intent: 'reviews_about', topic: 'login' });
  });
  test('what do people complain about most', () => {
    expect(parse('What do people complain about most?')).toEqual({ filters: {}, intent: 'top_complaints' });
  });
});

describe('dates, from now in UTC', () => {
  test.each([
    ['reviews in March', { from: '2026-03-01', to: '2026-03-31' }],
    ['reviews in December', { from: '2025-12-01', to: '2025-12-31' }], // not yet this year: the last one
    ['reviews in march 2024', { from: '2024-03-01', to: '2024-03-31' }],
    ['reviews during Feb', { from: '2026-02-01', to: '2026-02-28' }],
    ['reviews since 1 October', { from: '2026-10-01' }],
    ['reviews since October 1st', { from: '2026-10-01' }],
    ['reviews since 2025-10-01', { from: '2025-10-01' }],
    ['reviews since 1 December', { from: '2025-12-01' }],
    ['reviews since September', { from: '2026-09-01' }],
    ['reviews between 2026-01-05 and 2026-01-20', { from: '2026-01-05', to: '2026-01-20' }],
    ['reviews from 3 May to 1 June', { from: '2026-05-03', to: '2026-06-01' }],
    ['reviews before 2026-02-01', { to: '2026-01-31' }],
    ['reviews on 2026-11-02', { from: '2026-11-02', to: '2026-11-02' }],
    ['reviews in the last 30 days', { from: '2026-10-27', to: '2026-11-25' }],
    ['reviews in the past 7 days', { from: '2026-11-19', to: '2026-11-25' }],
    ['reviews of the last two weeks', { from: '2026-11-12', to: '2026-11-25' }],
    ['reviews of the last 3 months', { from: '2026-08-26', to: '2026-11-25' }],
    ['reviews today', { from: '2026-11-25', to: '2026-11-25' }],
    ['reviews yesterday', { from: '2026-11-24', to: '2026-11-24' }],
    ['reviews this week', { from: '2026-11-23', to: '2026-11-25' }],
    ['reviews this month', { from: '2026-11-01', to: '2026-11-25' }],
    ['reviews last month', { from: '2026-10-01', to: '2026-10-31' }],
    ['reviews this year', { from: '2026-01-01', to: '2026-11-25' }],
    ['reviews last year', { from: '2025-01-01', to: '2025-12-31' }],
    ['reviews in 2024', { from: '2024-01-01', to: '2024-12-31' }],
    ['reviews lately', { from: '2026-10-27', to: '2026-11-25' }],
  ])('%s', (text, dates) => expect(parse(text).filters).toEqual(dates));

  test('UTC: a minute after midnight UTC is already the new day, even where it is still yesterday', () => {
    expect(parse('reviews today', undefined, new Date('2026-03-01T00:01:00Z')).filters).toEqual({ from: '2026-03-01', to: '2026-03-01' });
    expect(parse('reviews last month', undefined, new Date('2026-03-01T00:01:00Z')).filters).toEqual({ from: '2026-02-01', to: '2026-02-28' });
  });
  test('last month in January is December of the year before', () => {
    expect(parse('reviews last month', undefined, new Date('2026-01-10T12:00:00Z')).filters).toEqual({ from: '2025-12-01', to: '2025-12-31' });
  });
  test('last week on a Monday is the whole week before', () => {
    expect(parse('reviews last week', undefined, new Date('2026-11-23T08:00:00Z')).filters).toEqual({ from: '2026-11-16', to: '2026-11-22' });
  });
});

describe('stars', () => {
  test.each([
    ['5 stars', [5]],
    ['5-star reviews', [5]],
    ['one star reviews', [1]],
    ['1★ reviews', [1]],
    ['1 or 2 stars', [1, 2]],
    ['1, 2 and 3 star reviews', [1, 2, 3]],
    ['1-2 star reviews', [1, 2]],
    ['2 to 4 stars', [2, 3, 4]],
    ['4 stars and above', [4, 5]],
    ['at least 4 stars', [4, 5]],
    ['2 stars or less', [1, 2]],
    ['below 3 stars', [1, 2]],
    ['more than 3 stars', [4, 5]],
  ])('%s', (text, ratings) => expect(parse(`how many ${text}`).filters.ratings).toEqual(ratings));
  test('a star count outside 1–5 is not a filter', () => expect(parse('how many 7 star reviews').filters.ratings).toBeUndefined());
});

describe('version, country, language, sentiment', () => {
  test.each([
    ['version 2.3', '2.3'],
    ['v3.1.4', '3.1.4'],
    ['the 4.0 release', '4.0'],
    ['build 812', '812'],
  ])('version: %s', (text, version) => expect(parse(`average rating of ${text}`).filters.version).toBe(version));

  test.each([
    ['in Germany', 'DE'],
    ['in the United States', 'US'],
    ['in the US', 'US'],
    ['in the USA', 'US'],
    ['from the UK', 'GB'],
    ['in Britain', 'GB'],
    ['in France', 'FR'],
    ['in japan', 'JP'],
    ['in Brazil', 'BR'],
    ['in Türkiye', 'TR'],
    ['in Turkey', 'TR'],
    ['in South Korea', 'KR'],
    ['in Côte d’Ivoire', 'CI'],
    ['in DE', 'DE'],
    ['from FR', 'FR'],
  ])('country: %s', (text, country) => expect(parse(`how many reviews ${text}`).filters.country).toBe(country));

  test('"us" in lower case is the pronoun, not a country; capitals that are words are not codes', () => {
    expect(parse('tell us how many reviews').filters.country).toBeUndefined();
    expect(parse('how many reviews mention AI features').filters.country).toBeUndefined();
    expect(parse('how many reviews are about the IT department').filters.country).toBeUndefined();
  });

  test.each([
    ['reviews in German', 'de'],
    ['German reviews', 'de'],
    ['reviews written in French', 'fr'],
    ['Spanish-speaking users', 'es'],
    ['Japanese reviews', 'ja'],
    ['Portuguese feedback', 'pt'],
    ['reviews in Chinese', 'zh'],
    ['reviews in Norwegian', 'nb'],
  ])('language: %s', (text, language) => expect(parse(`show me ${text}`).filters.language).toBe(language));

  test('a language name used as a word is not a language, and a country is not its language', () => {
    expect(parse('do people ask us to polish the design').filters.language).toBeUndefined();
    expect(parse('reviews in Germany').filters).toEqual({ country: 'DE' });
  });

  test.each(['positive', 'negative', 'neutral', 'mixed'] as const)('sentiment: %s', (s) => expect(parse(`how many ${s} reviews`).filters.sentiment).toBe(s));
});

describe('apps of the scope', () => {
  test('an app named by its title narrows to it', () => {
    expect(parse('rating distribution for Habit Tracker').filters.apps).toEqual([{ appStore: 'apple_app_store', appId: '1500000001' }]);
    expect(parse('how many reviews do notes and habit tracker have').filters.apps).toHaveLength(2);
  });
  test('no app named: no app filter (every app of the scope)', () => expect(parse('how many reviews').filters.apps).toBeUndefined());
  test('a title inside another word is not the app', () => expect(parse('how many reviews mention footnotes').filters.apps).toBeUndefined());
});

describe('intent and topic', () => {
  test.each([
    ['How many reviews did we get?', 'count', undefined],
    ['number of 5 star reviews', 'count', undefined],
    ['how many reviews mention crashes since October 1', 'count', 'crashes'],
    ["What's our average rating?", 'average', undefined],
    ['how is the app rated in France', 'average', undefined],
    ['rating distribution', 'distribution', undefined],
    ['breakdown by stars this month', 'distribution', undefined],
    ['how has the rating changed over time', 'trend', undefined],
    ['weekly trend of 1-star reviews', 'trend', undefined],
    ['What do people say about the dark mode in Germany last month?', 'reviews_about', 'dark mode'],
    ['reviews mentioning "sync error"', 'reviews_about', 'sync error'],
    ['find reviews regarding battery drain', 'reviews_about', 'battery drain'],
    ['German reviews about sync', 'reviews_about', 'sync'],
    ['negative reviews this month', 'reviews_about', undefined],
    ['What are the most common problems?', 'top_complaints', undefined],
    ['top complaints in version 2.3', 'top_complaints', undefined],
    ["what's wrong with the app", 'top_complaints', undefined],
    ['what is the weather in Paris', 'other', undefined],
    ['write me a poem', 'other', undefined],
  ])('%s → %s', (text, intent, topic) => {
    const parsed = parse(text);
    expect(parsed.intent).toBe(intent);
    expect(parsed.topic).toBe(topic);
  });

  test('breakdowns: by version, per country, per week', () => {
    expect(parse('average rating by version')).toMatchObject({ intent: 'average', breakdown: 'version' });
    expect(parse('how many reviews per country')).toMatchObject({ intent: 'count', breakdown: 'country' });
    expect(parse('ratings by country')).toMatchObject({ intent: 'average', breakdown: 'country' });
    expect(parse('weekly trend')).toMatchObject({ intent: 'trend', breakdown: 'week' });
    expect(parse('trend of the rating')).toMatchObject({ intent: 'trend', breakdown: 'day' });
    expect(parse('rating distribution')).toMatchObject({ intent: 'distribution', breakdown: 'rating' });
  });
});

describe('follow-ups', () => {
  const first = parse('How many 1-star reviews last week?').filters;

  test('"and in Germany?" keeps the dates and stars and adds the country', () => {
    expect(parse('and in Germany?', first)).toEqual({ filters: { from: '2026-11-16', to: '2026-11-22', ratings: [1], country: 'DE' }, intent: 'other' });
  });
  test('a named filter replaces the previous one of its kind', () => {
    const de = parse('and in Germany?', first).filters;
    expect(parse('what about France', de).filters.country).toBe('FR');
    expect(parse('and 5 stars?', de).filters.ratings).toEqual([5]);
    expect(parse('and in March?', de).filters).toMatchObject({ from: '2026-03-01', to: '2026-03-31', country: 'DE' });
  });
  test('"all time", "any country", "all ratings" drop a filter', () => {
    const de = parse('and in Germany?', first).filters;
    expect(parse('and for all time?', de).filters).toEqual({ ratings: [1], country: 'DE' });
    expect(parse('and in any country?', de).filters).toEqual({ from: '2026-11-16', to: '2026-11-22', ratings: [1] });
    expect(parse('all ratings please', de).filters).toEqual({ from: '2026-11-16', to: '2026-11-22', country: 'DE' });
  });
  test('a follow-up keeps the app', () => {
    const app = parse('average rating of Notes').filters;
    expect(parse('and last month?', app).filters).toEqual({ apps: [{ appStore: 'google_play_store', appId: 'com.example.notes' }], from: '2026-10-01', to: '2026-10-31' });
  });
  test('without previous filters nothing is invented', () => expect(parse('and in Germany?').filters).toEqual({ country: 'DE' }));
});

test('pure: the same question gives the same answer, and `now` decides relative dates', () => {
  expect(parse('reviews last week')).toEqual(parse('reviews last week'));
  expect(parse('reviews today', undefined, new Date('2020-02-29T12:00:00Z')).filters).toEqual({ from: '2020-02-29', to: '2020-02-29' });
});

describe('textQuery: a topic as the full-text query', () => {
  test('words as prefixes, stop words left out, a light suffix strip', () => {
    expect(textQuery('crashes')).toEqual({ all: 'crash:*', any: 'crash:*', words: ['crash'] });
    expect(textQuery('the dark mode')).toEqual({ all: 'dark:* & mode:*', any: 'dark:* | mode:*', words: ['dark', 'mode'] });
    expect(textQuery('syncing logins')?.words).toEqual(['sync', 'login']);
    expect(textQuery('crash crashes crashed')?.words).toEqual(['crash']);
  });
  test('only letters and digits reach the query: its syntax is never passed through', () => {
    expect(textQuery("login:* & !crash | ('")?.all).toBe('login:* & crash:*');
    expect(textQuery('!!! ...')).toBeUndefined();
  });
  test('only stop words: they are the words', () => expect(textQuery('the')?.words).toEqual(['the']));
  test('other languages cut as the search vector cuts them', () => {
    expect(textQuery('Anmeldung funktioniert nicht', 'de')?.words).toEqual(['anmeldung', 'funktioniert']);
  });
});
