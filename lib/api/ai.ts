/**
 * The inbox's AI actions: a review's translation (POST v1/org/reviews/{id}/translate) and reply drafts
 * (GET/POST v1/org/reviews/{id}/draft-reply). Throw ApiError; a 503's message says which settings turn the feature on.
 */
import { api, call } from './client';
import type { ApiData } from './openapi';
import { signedIn } from './org';
import type { ReplyTone } from '@/shared/ai';

export type ReviewTranslation = ApiData<'/api/v1/org/reviews/{id}/translate', 'post'>;
export type DraftInfo = ApiData<'/api/v1/org/reviews/{id}/draft-reply', 'get'>;
export type ReplyDraft = ApiData<'/api/v1/org/reviews/{id}/draft-reply', 'post'>;

const reviewPath = (reviewId: string, action: string) => `v1/org/reviews/${encodeURIComponent(reviewId)}/${action}`;

export const translateReview = async (reviewId: string, language: string) =>
  call<ReviewTranslation>(api.post(reviewPath(reviewId, 'translate'), { language }, await signedIn()));
export const getDraftInfo = async (reviewId: string) => call<DraftInfo>(api.get(reviewPath(reviewId, 'draft-reply'), await signedIn()));
export const draftReply = async (reviewId: string, tone: ReplyTone) => call<ReplyDraft>(api.post(reviewPath(reviewId, 'draft-reply'), { tone }, await signedIn()));
