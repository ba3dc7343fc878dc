// The welcome's recent reviews (issue 31) are labelled "Recent review" on every platform, not "New review"; reviews
// that arrive after connecting keep "New review". (Which deliveries are the welcome's: tests/worker/queueRead.test.ts.)
import { describe, expect, test } from 'vitest';
import { formatFor } from '@/server/destinations/format';
import { PLATFORMS } from '@/server/destinations/types';
import { UNSUBSCRIBE, reviewInput } from './sampleReviews';

const ctx = { unsubscribeUrl: UNSUBSCRIBE };
const words = (m: unknown) => JSON.stringify(m);

describe('the welcome’s recent reviews', () => {
  test.each(PLATFORMS.filter((p) => p !== 'webhook'))('%s: "Recent review" for the welcome, "New review" after it', (platform) => {
    const recent = words(formatFor(platform, { type: 'review', input: reviewInput({ recent: true }) }, ctx));
    expect(recent).toContain('Recent review');
    expect(recent).not.toContain('New review');
    const fresh = words(formatFor(platform, { type: 'review', input: reviewInput() }, ctx));
    expect(fresh).toContain('New review');
    expect(fresh).not.toContain('Recent review');
  });

  test('an edit stays "Updated review"', () => {
    expect(words(formatFor('slack', { type: 'review', input: reviewInput({ kind: 'updated', recent: true }) }, ctx))).toContain('Updated review');
  });
});
