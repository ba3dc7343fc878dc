/**
 * What the review pipeline changes in the queue, by itself:
 *  - a published reply makes the review `replied`: a reply sent through ARB once the store took it
 *    (server/replies/service.ts calls onReplyPublished), and any reply the store shows, ARB's or written elsewhere
 *    (server/monitor/ingest.ts calls onRepliesShown in the poll's transaction);
 *  - an edit of a review that was `replied` or `done` sends it back to `needs_reply` with EDITED_AFTER_REPLY_REASON
 *    (server/monitor/ingest.ts calls onReviewsEdited in the poll's transaction, for every organisation watching the
 *    app). Other areas that act on edits register with whenReviewsEdited; they run in the same transaction.
 */
import type { DB } from '../db/client';
import { EDITED_AFTER_REPLY_REASON } from '@/shared/workflow';
import { editedCandidates, setStatus, shownRepliesToMark, type WorkflowActor } from './data';

const REPLY_PUBLISHED: WorkflowActor = { kind: 'system', label: 'reply published' };
const STORE_SHOWS_REPLY: WorkflowActor = { kind: 'system', label: 'the store shows a reply' };
const REVIEW_EDITED: WorkflowActor = { kind: 'system', label: 'the reviewer edited the review' };

function byOrg(pairs: Array<{ org_id: string; review_id: string }>): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const p of pairs) (out.get(p.org_id) ?? out.set(p.org_id, []).get(p.org_id)!).push(p.review_id);
  return out;
}

/** The organisation's reply to the review through ARB was published: the review is `replied`. */
export async function onReplyPublished(orgId: string, reviewId: string, db?: DB): Promise<void> {
  await setStatus({ orgId, reviewIds: [reviewId], status: 'replied', actor: REPLY_PUBLISHED }, db);
}

/** A poll stored the store's replies to `reviewIds` (inside its transaction): those with a reply now are `replied`. */
export async function onRepliesShown(trx: DB, reviewIds: number[]): Promise<void> {
  if (reviewIds.length === 0) return;
  for (const [orgId, ids] of byOrg(await shownRepliesToMark(reviewIds, trx))) {
    await setStatus({ orgId, reviewIds: ids, status: 'replied', actor: STORE_SHOWS_REPLY }, trx);
  }
}

export type EditHook = (trx: DB, reviewIds: number[]) => Promise<void>;
const g = globalThis as unknown as { __arbEditHooks?: Set<EditHook> };
const hooks = () => (g.__arbEditHooks ??= new Set());

/** `hook` runs for every poll that stored edits, inside its transaction, after the statuses changed; returns the unregister. */
export function whenReviewsEdited(hook: EditHook): () => void {
  hooks().add(hook);
  return () => hooks().delete(hook);
}

/**
 * A poll stored edits of `reviewIds` (inside its transaction): each that was replied or done, for each organisation
 * watching the app, is `needs_reply` "edited after your reply"; then the registered hooks run.
 */
export async function onReviewsEdited(trx: DB, reviewIds: number[]): Promise<void> {
  if (reviewIds.length === 0) return;
  for (const [orgId, ids] of byOrg(await editedCandidates(reviewIds, trx))) {
    await setStatus({ orgId, reviewIds: ids, status: 'needs_reply', reason: EDITED_AFTER_REPLY_REASON, actor: REVIEW_EDITED }, trx);
  }
  for (const hook of hooks()) await hook(trx, reviewIds);
}
