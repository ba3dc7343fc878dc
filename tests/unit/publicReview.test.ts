/**
 * The public review is one zod schema (shared/review.ts): the inbox's and the public API's answers are checked against
 * it under NODE_ENV=test (server/http/answerCheck.ts), and here the signed webhook's review messages are, so a field
 * added to one and not the other fails a test (and tsc, through WebhookReview and the endpoints' return types).
 */
import { describe, expect, test } from 'vitest';
import { z } from 'zod';
import { formatReview } from '@/server/destinations/platforms/webhook';
import { schemaMismatches } from '@/server/http/answerCheck';
import { apiReviewSchema, publicReviewSchema, webhookReviewSchema } from '@/shared/review';
import { playInput, reviewInput } from './format/sampleReviews';

const envelope = z.object({ type: z.enum(['review.created', 'review.updated', 'review.test']), version: z.literal(2), timestamp: z.string(), data: webhookReviewSchema });
const bodyOf = (input: Parameters<typeof formatReview>[0]) => {
  const m = formatReview(input);
  if (m.kind !== 'json') throw new Error('a signed webhook sends JSON');
  return JSON.parse(JSON.stringify(m.body)) as unknown;
};

describe("the signed webhook's review is the public review", () => {
  test('a new, an edited (translated) and a test review are what the schema says, with no field it does not list', () => {
    const edited = { ...reviewInput({ kind: 'updated', reviewId: '42', previous: { rating: 5, body: 'Loved it.', title: null } }, { rating: 2 }) };
    for (const input of [reviewInput({ reviewId: '41' }), edited, playInput(), reviewInput()]) {
      expect(schemaMismatches(envelope, bodyOf(input))).toEqual([]);
    }
  });

  test('it has every field of the public review, and only the translation besides', () => {
    const webhookOnly = Object.keys(webhookReviewSchema.shape).filter((k) => !(k in publicReviewSchema.shape));
    expect(webhookOnly).toEqual(['translation']);
    expect(Object.keys(apiReviewSchema.shape)).toEqual(Object.keys(publicReviewSchema.shape));
  });

  test("its times are the public API's unix seconds, not the dashboard's ISO strings", () => {
    const input = reviewInput({ reviewId: '41' });
    const body = bodyOf(input) as { timestamp: string; data: Record<string, unknown> };
    expect(body.data.content_updated_at).toBe(Math.floor(input.review.updatedAt.getTime() / 1000));
    expect(body.timestamp).toBe(input.review.updatedAt.toISOString()); // the Standard Webhooks envelope keeps ISO 8601
  });

  test('the check names a field the webhook sends that the schema does not list', () => {
    const body = bodyOf(reviewInput({ reviewId: '41' })) as { data: Record<string, unknown> };
    body.data.internal_id = 7;
    expect(schemaMismatches(envelope, body)).toEqual(['data.internal_id: not in the response schema']);
  });
});
