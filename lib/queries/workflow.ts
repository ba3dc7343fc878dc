/**
 * React Query hooks of the support queue: one review's detail (its notes and edits), workflow changes one by one or in
 * bulk (each refreshes the inbox and the review), notes, the organisation's tags and an app's tags per week.
 */
import { useQuery } from '@tanstack/react-query';
import {
  addReviewNote,
  appTagWeeks,
  changeReview,
  changeReviews,
  createTag,
  deleteTag,
  getReview,
  listTags,
  updateTag,
  type BulkAnswer,
  type ReviewNote,
  type Tag,
  type WorkflowChange,
} from '@/lib/api/workflow';
import { reviewKeys } from './orgApps';
import { useInvalidatingMutation, type Outcome } from './team';

export const tagKeys = { all: ['org', 'tags'] as const, app: (appKey: string, weeks: number) => ['org', 'tags', 'app', { appKey, weeks }] as const };
export const reviewDetailKey = (id: string) => [...reviewKeys.all, 'detail', id] as const;

export const useReviewDetail = (id: string | null) => useQuery({ queryKey: reviewDetailKey(id ?? ''), queryFn: () => getReview(id!), enabled: !!id });
export const useTags = () => useQuery({ queryKey: tagKeys.all, queryFn: listTags });
export const useAppTagWeeks = (appKey: string, weeks: number) => useQuery({ queryKey: tagKeys.app(appKey, weeks), queryFn: () => appTagWeeks(appKey, weeks), enabled: !!appKey });

type ChangeVars = { id: string; change: WorkflowChange };
export const useChangeReview = (o?: Outcome<ChangeVars, unknown>) => useInvalidatingMutation((v: ChangeVars) => changeReview(v.id, v.change), [reviewKeys.all, tagKeys.all], o);
type BulkVars = { ids: string[]; set: WorkflowChange };
export const useChangeReviews = (o?: Outcome<BulkVars, BulkAnswer>) => useInvalidatingMutation((v: BulkVars) => changeReviews(v.ids, v.set), [reviewKeys.all, tagKeys.all], o);
type NoteVars = { id: string; text: string };
export const useAddNote = (o?: Outcome<NoteVars, ReviewNote>) => useInvalidatingMutation((v: NoteVars) => addReviewNote(v.id, v.text), [reviewKeys.all], o);

export const useCreateTag = (o?: Outcome<{ name: string; color: string }, Tag>) => useInvalidatingMutation((v: { name: string; color: string }) => createTag(v), [tagKeys.all], o);
type TagChange = { id: string; name?: string; color?: string };
export const useUpdateTag = (o?: Outcome<TagChange, Tag>) => useInvalidatingMutation(({ id, ...v }: TagChange) => updateTag(id, v), [tagKeys.all, reviewKeys.all], o);
export const useDeleteTag = (o?: Outcome<string, { ok: true }>) => useInvalidatingMutation((id: string) => deleteTag(id), [tagKeys.all, reviewKeys.all], o);
