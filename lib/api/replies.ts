/**
 * Replies and reply templates (POST/DELETE v1/org/reviews/{id}/reply, GET/POST v1/org/reply-templates,
 * PATCH/DELETE v1/org/reply-templates/{id}). Throw ApiError; a refused reply's message says what to do.
 */
import { api, call } from './client';
import type { ApiData } from './openapi';
import { signedIn } from './org';

export type SentReply = ApiData<'/api/v1/org/reviews/{id}/reply', 'post'>;
export type ReplyTemplate = ApiData<'/api/v1/org/reply-templates', 'get'>[number];

const replyPath = (reviewId: string) => `v1/org/reviews/${encodeURIComponent(reviewId)}/reply`;
export const sendReply = async (reviewId: string, text: string, draft = false) =>
  call<SentReply>(api.post(replyPath(reviewId), draft ? { text, draft } : { text }, await signedIn()));
export const removeReply = async (reviewId: string) => call<{ ok: true }>(api.delete(replyPath(reviewId), await signedIn()));

export const listReplyTemplates = async (appKey: string) => call<ReplyTemplate[]>(api.get(`v1/org/reply-templates?app=${encodeURIComponent(appKey)}`, await signedIn()));
export const createReplyTemplate = async (input: { app_key: string; name: string; body: string }) => call<ReplyTemplate>(api.post('v1/org/reply-templates', input, await signedIn()));
export const deleteReplyTemplate = async (id: string) => call<{ ok: true }>(api.delete(`v1/org/reply-templates/${encodeURIComponent(id)}`, await signedIn()));

// Rules' drafts awaiting approval (GET v1/org/replies, POST v1/org/replies/{id}/approve|reject) and reply pauses.
export type ListedReply = ApiData<'/api/v1/org/replies', 'get'>[number];
export type ReplyPause = ApiData<'/api/v1/org/reply-pauses', 'get'>[number];
export const listReplies = async (state = 'awaiting_approval') => call<ListedReply[]>(api.get(`v1/org/replies?state=${encodeURIComponent(state)}&limit=100`, await signedIn()));
export const approveReply = async (id: string, text?: string) =>
  call<ListedReply>(api.post(`v1/org/replies/${encodeURIComponent(id)}/approve`, text === undefined ? {} : { text }, await signedIn()));
export const rejectReply = async (id: string) => call<ListedReply>(api.post(`v1/org/replies/${encodeURIComponent(id)}/reject`, {}, await signedIn()));
export const listReplyPauses = async () => call<ReplyPause[]>(api.get('v1/org/reply-pauses', await signedIn()));
