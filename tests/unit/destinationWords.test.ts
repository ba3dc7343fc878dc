// What the Destinations page says about a destination: how to get a stopped one going again (by its cause, never by
// the reason's wording) and its filters in words.
import { describe, expect, test } from 'vitest';
import { fixFor } from '@/server/orgDestinations/status';
import { describeFilters, splitList } from '@/components/dashboard/destinations/filterText';

describe('how to fix a stopped destination', () => {
  const base = { platform: 'slack' as const, target: 'hooks.slack.com/…abcd' };
  test.each([
    ['active', null, null],
    ['paused', 'owner', 'Resume it to post new reviews again. Reviews that arrive while it is paused are skipped, not sent later.'],
    ['paused', 'rate_limited', 'Resume it once Slack accepts messages again: the reviews queued before the pause are kept. Reviews that arrive while it is paused are skipped, not sent later.'],
    ['paused', 'anonymous_expired', 'Resume it: it belongs to your organisation now and no longer expires. Reviews that arrive while it is paused are skipped, not sent later.'],
    ['disabled', 'receiver_refused', 'Check the webhook in Slack (or make a new one), then add it again with "Add destination". Resume tries the saved one again.'],
    ['disabled', 'unsubscribed', expect.stringMatching(/^Only the recipient can sign up again/)],
    ['pending_confirmation', null, 'Ask the owner of hooks.slack.com/…abcd to click the link in the confirmation e-mail we sent.'],
  ] as const)('%s / %s', (status, cause, words) => {
    expect(fixFor({ ...base, status, cause })).toEqual(words);
  });
  test('e-mail destinations speak of the address and the mail server', () => {
    expect(fixFor({ status: 'disabled', cause: 'receiver_refused', platform: 'email', target: 'an…@example.com' })).toMatch(/^Check the address/);
    expect(fixFor({ status: 'paused', cause: 'rate_limited', platform: 'email', target: 'an…@example.com' })).toMatch(/once the mail server accepts/);
  });
});

describe('filters in words', () => {
  test.each([
    [{}, 'Every review'],
    [{ ratings: [1] }, '1 star'],
    [{ ratings: [1, 2], countries: ['us', 'gb'] }, '1, 2 stars · countries US, GB'],
    [{ countries: ['a', 'b', 'c', 'd', 'e', 'f', 'g'].map((c) => `${c}x`) }, '7 countries'],
    [{ languages: ['en'], keywords: ['crash', 'refund'] }, 'languages en · containing “crash” or “refund”'],
  ])('%j', (filters, words) => {
    expect(describeFilters(filters)).toBe(words);
  });
  test('comma-separated fields drop blanks and spaces', () => {
    expect(splitList(' us, gb ,, ')).toEqual(['us', 'gb']);
  });
});
