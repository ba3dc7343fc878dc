/**
 * What a rule does to a review it matched, one action at a time, inside the rules pass's transaction (runner.ts):
 *
 *   tag            server/workflow addTags (which also delivers to destinations filtered by that tag)
 *   assign         server/workflow setAssignee (a member of the organisation now; someone removed since is skipped)
 *   set_status     server/workflow setStatus
 *   notify         the review to that destination once, through the delivery engine (data.ts queueNotify)
 *   zendesk_ticket server/zendesk requestTicket (queued; the Zendesk call is its job's, after the commit)
 *   reply          recorded as pending: drafting may call a language model, so the reply is queued after the pass
 *                  commits, outside any transaction (replies.ts)
 *
 * Each action is written down with its outcome in the firing (`outcomes`). An action the state of things refuses —
 * a tag or template deleted since, an assignee no longer a member, a destination paused — is `skipped` with the
 * reason, and the rule's other actions still run. Every change names the rule in the audit log (the actor
 * `{ kind: 'rule' }` of server/workflow, `rule "name"` for tickets).
 */
import type { DB } from '../db/client';
import { HttpError } from '../http/errors';
import { addTags, setAssignee, setStatus, type WorkflowActor } from '../workflow/data';
import { requestTicket } from '../zendesk/tickets';
import { queueNotify, type ReviewForRules, type StoredRule } from './data';
import type { RuleAction } from './schema';

/** What one action did: done (it changed something), unchanged (already so), queued, skipped (with the reason), pending. */
export type ActionOutcome = {
  type: RuleAction['type'];
  outcome: 'done' | 'unchanged' | 'queued' | 'awaiting_approval' | 'skipped' | 'pending';
  reason?: string;
  /** A pending reply's settings (replies.ts). */
  template_id?: string;
  mode?: 'approval' | 'auto';
  daily_cap?: number;
  approval_destination_id?: string | null;
};

/** What a pass must do after its commit. */
export type PassEffects = { deliveries: boolean; replies?: boolean };

export type ActionContext = {
  orgId: string;
  rule: Pick<StoredRule, 'id' | 'name'>;
  review: ReviewForRules;
  /** The review's tags in the organisation, kept current for the rules after this one. */
  facts: { tagIds: Set<string> };
  db: DB;
  effects: PassEffects;
};

const skipped = (type: RuleAction['type'], reason: string): ActionOutcome => ({ type, outcome: 'skipped', reason });

/** The action's refusal in words (an HttpError's message: "that person is not a member…"), or rethrown. */
function refusal(type: RuleAction['type'], err: unknown): ActionOutcome {
  if (err instanceof HttpError && err.status < 500) return skipped(type, err.message);
  throw err;
}

export async function runAction(ctx: ActionContext, action: RuleAction): Promise<ActionOutcome> {
  const actor: WorkflowActor = { kind: 'rule', ruleId: ctx.rule.id, ruleName: ctx.rule.name };
  const reviewIds = [String(ctx.review.id)];
  const { orgId, db } = ctx;
  switch (action.type) {
    case 'tag': {
      try {
        const n = await addTags({ orgId, reviewIds, tagIds: [action.tag_id], actor }, db);
        ctx.facts.tagIds.add(action.tag_id);
        // A new tag may owe deliveries to destinations filtered by it (addTags queued them).
        if (n > 0) ctx.effects.deliveries = true;
        return { type: 'tag', outcome: n > 0 ? 'done' : 'unchanged' };
      } catch (err) {
        return refusal('tag', err);
      }
    }
    case 'assign': {
      try {
        const n = await setAssignee({ orgId, reviewIds, assigneeId: action.user_id, actor }, db);
        return { type: 'assign', outcome: n > 0 ? 'done' : 'unchanged' };
      } catch (err) {
        return refusal('assign', err);
      }
    }
    case 'set_status': {
      try {
        const n = await setStatus({ orgId, reviewIds, status: action.status, actor }, db);
        return { type: 'set_status', outcome: n > 0 ? 'done' : 'unchanged' };
      } catch (err) {
        return refusal('set_status', err);
      }
    }
    case 'notify': {
      const r = await queueNotify({ orgId, destinationId: action.destination_id, reviewId: ctx.review.id, appKey: ctx.review.app_key, version: ctx.review.version }, db);
      if (r === 'inactive') return skipped('notify', 'the destination is paused, stopped or no longer there');
      if (r === 'already') return { type: 'notify', outcome: 'unchanged', reason: 'the destination already has this review' };
      ctx.effects.deliveries = true;
      return { type: 'notify', outcome: 'queued' };
    }
    case 'zendesk_ticket': {
      try {
        const r = await requestTicket({ orgId, reviewId: reviewIds[0], actor }, db);
        if (r.outcome === 'not_connected') return skipped('zendesk_ticket', 'Zendesk is not connected (Integrations → Zendesk)');
        return r.outcome === 'exists' ? { type: 'zendesk_ticket', outcome: 'unchanged', reason: 'the review has its ticket already' } : { type: 'zendesk_ticket', outcome: 'queued' };
      } catch (err) {
        return refusal('zendesk_ticket', err);
      }
    }
    case 'reply':
      ctx.effects.replies = true;
      // Its settings go with it: the rule may change before it runs (replies.ts).
      return { type: 'reply', outcome: 'pending', template_id: action.template_id, mode: action.mode, daily_cap: action.daily_cap, approval_destination_id: action.approval_destination_id ?? null };
  }
}
