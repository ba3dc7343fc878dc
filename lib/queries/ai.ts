/** React Query hooks of the inbox's AI actions: what a draft would be (per review), drafting, translating. */
import { useMutation, useQuery } from '@tanstack/react-query';
import { draftReply, getDraftInfo, translateReview, type ReplyDraft, type ReviewTranslation } from '@/lib/api/ai';
import type { ReplyTone } from '@/shared/ai';
import type { Outcome } from './team';

export const aiKeys = { draftInfo: (reviewId: string) => ['org', 'reviews', reviewId, 'draft-reply'] as const };

export const useDraftInfo = (reviewId: string) => useQuery({ queryKey: aiKeys.draftInfo(reviewId), queryFn: () => getDraftInfo(reviewId), staleTime: 60_000 });

type DraftVars = { reviewId: string; tone: ReplyTone };
export const useDraftReply = (o: Outcome<DraftVars, ReplyDraft> = {}) =>
  useMutation({ mutationFn: (v: DraftVars) => draftReply(v.reviewId, v.tone), onSuccess: (r, v) => o.onSuccess?.(r, v), onError: (e) => o.onError?.(e) });

type TranslateVars = { reviewId: string; language: string };
export const useTranslateReview = (o: Outcome<TranslateVars, ReviewTranslation> = {}) =>
  useMutation({ mutationFn: (v: TranslateVars) => translateReview(v.reviewId, v.language), onSuccess: (r, v) => o.onSuccess?.(r, v), onError: (e) => o.onError?.(e) });
