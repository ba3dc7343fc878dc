/**
 * React Query hooks of replies: sending or deleting one changes the review in the inbox (its reply state), so the inbox
 * is refreshed; templates are read per app when a composer opens.
 */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  approveReply,
  createReplyTemplate,
  deleteReplyTemplate,
  listReplies,
  listReplyPauses,
  listReplyTemplates,
  rejectReply,
  removeReply,
  sendReply,
  type ListedReply,
  type ReplyTemplate,
  type SentReply,
} from '@/lib/api/replies';
import { reviewKeys } from './orgApps';
import { useInvalidatingMutation, type Outcome } from './team';

export const templateKeys = { all: ['org', 'reply-templates'] as const, app: (appKey: string) => ['org', 'reply-templates', appKey] as const };

export const useReplyTemplates = (appKey: string) => useQuery({ queryKey: templateKeys.app(appKey), queryFn: () => listReplyTemplates(appKey) });

type ReplyVars = { reviewId: string; text: string; draft?: boolean };
/** A refused reply is recorded too (state failed, with the reason), so the inbox is refreshed whatever the outcome. */
export function useSendReply(o: Outcome<ReplyVars, SentReply> = {}) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (v: ReplyVars) => sendReply(v.reviewId, v.text, v.draft),
    onSuccess: (result, vars) => o.onSuccess?.(result, vars),
    onError: (e) => o.onError?.(e),
    onSettled: () => client.invalidateQueries({ queryKey: reviewKeys.all }),
  });
}
export const useRemoveReply = (o?: Outcome<string, { ok: true }>) => useInvalidatingMutation((reviewId: string) => removeReply(reviewId), [reviewKeys.all], o);

type NewTemplate = { app_key: string; name: string; body: string };
export const useCreateTemplate = (o?: Outcome<NewTemplate, ReplyTemplate>) => useInvalidatingMutation((v: NewTemplate) => createReplyTemplate(v), [templateKeys.all], o);
export const useDeleteTemplate = (o?: Outcome<string, { ok: true }>) => useInvalidatingMutation((id: string) => deleteReplyTemplate(id), [templateKeys.all], o);

export const approvalKeys = { all: ['org', 'replies'] as const, state: (state: string) => ['org', 'replies', state] as const, pauses: ['org', 'reply-pauses'] as const };
export const useRepliesInState = (state = 'awaiting_approval') => useQuery({ queryKey: approvalKeys.state(state), queryFn: () => listReplies(state) });
export const useReplyPauses = () => useQuery({ queryKey: approvalKeys.pauses, queryFn: () => listReplyPauses() });
type ApproveVars = { id: string; text?: string };
export const useApproveReply = (o?: Outcome<ApproveVars, ListedReply>) => useInvalidatingMutation((v: ApproveVars) => approveReply(v.id, v.text), [approvalKeys.all, reviewKeys.all], o);
export const useRejectReply = (o?: Outcome<string, ListedReply>) => useInvalidatingMutation((id: string) => rejectReply(id), [approvalKeys.all, reviewKeys.all], o);
