/** Review messages for the formatter tests: an ordinary App Store review, a Google Play one, and helpers. */
import type { ReviewMessageInput, WelcomeMessageInput } from '@/server/destinations/types';
import type { NormalizedReview } from '@/server/sources/types';

export const PERMALINK = 'https://apps.apple.com/us/app/id1488000123?see-all=reviews';
export const UNSUBSCRIBE = 'https://arb.example/api/v1/unsubscribe?token=abc.def&d=42';

export function appStoreReview(overrides: Partial<NormalizedReview> = {}): NormalizedReview {
  return {
    store: 'apple_app_store',
    appId: '1488000123',
    storeReviewId: '11092938471',
    country: 'us',
    language: null,
    authorName: 'kayak_dad',
    title: 'Sync broke after the update',
    body: 'Since 5.12 my notes don’t sync between iPad and iPhone anymore.\nPlease fix!',
    rating: 2,
    appVersion: '5.12.0',
    createdAt: null,
    updatedAt: new Date('2024-05-14T15:41:09Z'),
    replyText: null,
    replyUpdatedAt: null,
    permalink: PERMALINK,
    ...overrides,
  };
}

export function reviewInput(overrides: Partial<ReviewMessageInput> = {}, review: Partial<NormalizedReview> = {}): ReviewMessageInput {
  return {
    kind: 'new',
    review: appStoreReview(review),
    app: { appId: '1488000123', store: 'apple_app_store', title: 'Lumen Notes', storeUrl: 'https://apps.apple.com/us/app/id1488000123' },
    ...overrides,
  };
}

export function playInput(): ReviewMessageInput {
  return {
    kind: 'new',
    review: appStoreReview({
      store: 'google_play_store',
      appId: 'com.lumenlabs.notes',
      storeReviewId: 'gp:AOqpTOF',
      country: null,
      language: 'de',
      authorName: 'Lukas',
      title: null,
      body: 'Stürzt beim Start ab.',
      rating: 1,
      appVersion: null,
      permalink: 'https://play.google.com/store/apps/details?id=com.lumenlabs.notes&reviewId=gp%3AAOqpTOF',
    }),
    app: { appId: 'com.lumenlabs.notes', store: 'google_play_store', title: 'Lumen Notes' },
    sentiment: { label: 'negative', score: -0.8 },
    translation: { text: 'Crashes on start.', language: 'en' },
  };
}

export const welcomeInput: WelcomeMessageInput = {
  app: { appId: '1488000123', store: 'apple_app_store', title: 'Lumen Notes' },
  recentCount: 5,
  manageUrl: 'https://arb.example/dashboard',
};
