// The stats page's sentiment in words (components/dashboard/stats/sentimentCounts.ts): all four classes, and the
// reviews not classified yet when there are any, so that the parts add up to the review count beside them.
import { describe, expect, it } from 'vitest';
import { sentimentText } from '@/components/dashboard/stats/sentimentCounts';

describe('sentiment counts in words', () => {
  it('names the four classes, mixed included', () => {
    expect(sentimentText({ reviews: 60, positive: 40, neutral: 5, mixed: 3, negative: 12, unclassified: 0 })).toBe('40 positive · 5 neutral · 3 mixed · 12 negative');
  });

  it('says how many are not classified yet, so that the parts add up to the total', () => {
    const t = { reviews: 70, positive: 40, neutral: 5, mixed: 3, negative: 12, unclassified: 10 };
    expect(sentimentText(t)).toBe('40 positive · 5 neutral · 3 mixed · 12 negative · 10 not yet classified');
    const shown = sentimentText(t).match(/\d+/g)!.map(Number);
    expect(shown.reduce((a, b) => a + b, 0)).toBe(t.reviews);
  });

  it('shows a dash without reviews', () => {
    expect(sentimentText({ reviews: 0, positive: 0, neutral: 0, mixed: 0, negative: 0, unclassified: 0 })).toBe('—');
  });
});
