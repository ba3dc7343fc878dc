/**
 * The support queue's calls: one review with its workflow (GET/PATCH v1/org/reviews/{id}), its internal notes
 * (POST v1/org/reviews/{id}/notes), bulk changes (POST v1/org/reviews/bulk, at most 500 ids in one transaction), the
 * organisation's tags (GET/POST v1/org/tags, PATCH/DELETE v1/org/tags/{id}) and an app's reviews per tag per week
 * (GET v1/org/apps/{appKey}/tags). Throw ApiError.
 */
import { api, call } from './client';
import type { ApiBody, ApiData } from './openapi';
import { signedIn } from './org';

export type Tag = { id: string; name: string; color: string };
/** The review with its queue, its internal notes (oldest first) and its earlier versions (oldest first). */
export type ReviewDetail = ApiData<'/api/v1/org/reviews/{id}', 'get'>;
/** An internal note: its text, who wrote it (`by`) and when. */
export type ReviewNote = ReviewDetail['notes'][number];
/** One earlier version of a review, as the store showed it before an edit. */
export type ReviewEdit = ReviewDetail['history'][number];
/** What a workflow change sets: a status, an assignee (null: nobody), tags added and removed. */
export type WorkflowChange = ApiBody<'/api/v1/org/reviews/{id}', 'patch'>;
export type TagWeeks = ApiData<'/api/v1/org/apps/{appKey}/tags', 'get'>;
/** A bulk change's answer: how many reviews were named, and how many statuses, assignees and tags changed. */
export type BulkAnswer = ApiData<'/api/v1/org/reviews/bulk', 'post'>;

const reviewPath = (id: string) => `v1/org/reviews/${encodeURIComponent(id)}`;
const tagPath = (id: string) => `v1/org/tags/${encodeURIComponent(id)}`;

export const getReview = async (id: string) => call<ReviewDetail>(api.get(reviewPath(id), await signedIn()));
export const changeReview = async (id: string, change: WorkflowChange) => call<unknown>(api.patch(reviewPath(id), change, await signedIn()));
export const addReviewNote = async (id: string, text: string) => call<ReviewNote>(api.post(`${reviewPath(id)}/notes`, { text }, await signedIn()));
export const changeReviews = async (ids: string[], set: WorkflowChange) => call<BulkAnswer>(api.post('v1/org/reviews/bulk', { ids, set }, await signedIn()));

export const listTags = async () => call<Tag[]>(api.get('v1/org/tags', await signedIn()));
export const createTag = async (input: { name: string; color: string }) => call<Tag>(api.post('v1/org/tags', input, await signedIn()));
export const updateTag = async (id: string, input: { name?: string; color?: string }) => call<Tag>(api.patch(tagPath(id), input, await signedIn()));
export const deleteTag = async (id: string) => call<{ ok: true }>(api.delete(tagPath(id), await signedIn()));
export const appTagWeeks = async (appKey: string, weeks: number) =>
  call<TagWeeks>(api.get(`v1/org/apps/${encodeURIComponent(appKey)}/tags?weeks=${weeks}`, await signedIn()));
