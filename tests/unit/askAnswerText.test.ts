// What of a model's streamed answer reaches the reader (server/askArb/answerText.ts): citations checked against the
// reviews the tools returned and renumbered in order, whatever piece boundaries the stream has; numbers the model made
// up dropped; links and e-mail addresses removed even when split across pieces; the stores' links and the apps' own
// names kept.
import { describe, expect, test } from 'vitest';
import { AnswerText, guardText } from '@/server/askArb/answerText';
import type { AskCitation, AskReview } from '@/server/askArb/types';

const review = (id: string): AskReview => ({
  id,
  app_store: 'google_play_store',
  app_id: 'com.example.app',
  author: 'A',
  rating: 1,
  title: null,
  body: `Review ${id}`,
  date: '2026-11-20T00:00:00.000Z',
  country: 'US',
  version: '1.0',
  language: 'en',
  permalink: null,
});

function run(pieces: string[], ids = ['11', '22', '33'], names: string[] = []) {
  const citable = new Map(ids.map((id) => [id, review(id)]));
  const texts: string[] = [];
  const citations: AskCitation[] = [];
  const events: string[] = [];
  const t = new AnswerText(citable, { text: (x) => (texts.push(x), events.push(`text:${x}`)), citation: (c) => (citations.push(c), events.push(`cite:${c.n}`)) }, names);
  for (const p of pieces) t.push(p);
  t.end();
  return { shown: t.shown, joined: texts.join(''), citations, events, answer: t };
}

/** Every way of cutting `text` into two pieces, and into single characters. */
const splits = (text: string) => [...Array.from({ length: text.length + 1 }, (_, i) => [text.slice(0, i), text.slice(i)]), [...text]];

describe('citations', () => {
  const text = 'Login fails [review:22] and crashes [review:11, review:22][review:99]. Also [review:33]; see [4] too.';
  test.each(splits(text).map((p) => [p]))('renumbered in order of first citation, invented ids and made-up numbers dropped: %j', (pieces) => {
    const r = run(pieces);
    expect(r.shown).toBe('Login fails [1] and crashes [2][1]. Also [3]; see  too.');
    expect(r.joined).toBe(r.shown);
    expect(r.citations.map((c) => [c.id, c.n])).toEqual([['22', 1], ['11', 2], ['33', 3]]);
  });

  test('a citation is announced before the text that uses it', () => {
    const r = run(['Bad [review:11] ', 'app']);
    expect(r.events.indexOf('cite:1')).toBeLessThan(r.events.findIndex((e) => e.includes('[1]')));
  });

  test('a bracket that is not a marker is text; an unfinished marker at the end is text too', () => {
    expect(run(['Use [the menu] and ', '[re', 'ally] this ', '[review:1']).shown).toBe('Use [the menu] and [really] this [review:1');
  });

  test('a review no tool returned this answer is never cited, even when the model insists', () => {
    const r = run(['Everyone agrees [review:12345][review: 999 ; review:abc].'], []);
    expect(r.shown).toBe('Everyone agrees .');
    expect(r.citations).toEqual([]);
  });
});

describe('output guard', () => {
  const planted = 'Claim a refund at https://evil.example.com/claim?x=1 or mail refunds@evil.example.com, [click](http://evil.example.com) or www.evil.example.com, even evil-site.com/path.';
  test.each(splits(planted).filter((_, i) => i % 7 === 0).map((p) => [p]))('links and addresses removed whatever the pieces: %j', (pieces) => {
    const r = run(pieces);
    expect(r.shown).not.toMatch(/evil|refunds@/);
    expect(r.shown).toBe('Claim a refund at (link removed) or mail (link removed), [click]((link removed)) or (link removed), even (link removed).');
  });

  test('the stores and the apps’ own names stay; other schemes go', () => {
    expect(guardText('See https://play.google.com/store/apps/details?id=x and https://apps.apple.com/app/id1 ', undefined, [])).toBe('See https://play.google.com/store/apps/details?id=x and https://apps.apple.com/app/id1 ');
    expect(guardText('javascript:alert(1) tel:+15551234 data:text/html,x ')).toBe('(link removed)(1) (link removed) (link removed) ');
    expect(run(['Booking.com users ', 'love it'], [], ['Booking.com: Hotels']).shown).toBe('Booking.com users love it');
    expect(guardText('Version 2.3.1 of the app, e.g. the login ')).toBe('Version 2.3.1 of the app, e.g. the login ');
  });
});
