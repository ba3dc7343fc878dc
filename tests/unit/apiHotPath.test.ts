// The shortcuts of the API's hot path (server/http/api.ts) give the same results as the general code they skip.
import { describe, expect, test } from 'vitest';
import { cachedAnswer, queryOf } from '@/server/http/api';

describe('queryOf: the query string without URL objects', () => {
  const urls = [
    '/api/x',
    '/api/x?',
    '/api/x?a=1&b=two',
    '/api/x?a=1&a=2', // the last value wins
    '/api/x?a&b=&=c&&d=1=2',
    '/api/x?q=caf%C3%A9+bar&r=%ZZ', // escapes, '+' and a malformed escape
    '/api/x?q=a#frag&b=2', // a fragment is not part of the query
    '/api/x?__proto__=1&constructor=2',
    '/api/x?toString=x&hasOwnProperty=y',
    '/api/x?q="<>\'`{}|^', // characters the URL parser escapes, then decodes again
    '/api/x?ü=é',
  ];
  test.each(urls)('%s', (url) => {
    const expected = Object.fromEntries(new URL(url, 'http://localhost').searchParams);
    const got = queryOf(url);
    expect(got).toEqual(expected);
    expect(Object.getPrototypeOf(got)).toBe(Object.prototype);
    expect(Object.keys(got)).toEqual(Object.keys(expected));
  });
});

describe('cachedAnswer: JSON made once per shared, frozen value', () => {
  test('the body is the usual { data } answer, kept for a frozen value', () => {
    const value = Object.freeze({ title: 'Streakly', rating: 4.5, icon: null, note: 'é "quoted" </script>' });
    const first = cachedAnswer(value);
    expect(JSON.parse(first.body.toString('utf8'))).toEqual({ data: value });
    expect(first.body.toString('utf8')).toBe(JSON.stringify({ data: value }));
    expect(cachedAnswer(value)).toBe(first);
  });

  test('a value that can change is serialized again each time', () => {
    const value = { count: 1 };
    expect(cachedAnswer(value).body.toString()).toBe('{"data":{"count":1}}');
    value.count = 2;
    expect(cachedAnswer(value).body.toString()).toBe('{"data":{"count":2}}');
  });
});
