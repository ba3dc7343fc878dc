/**
 * What rules do to the reviews they matched: every new firing's actions of a pass at once, inside the pass's
 * transaction (runner.ts), one statement per kind of change rather than one per action — a pass of hundreds of
 * reviews writes its tags, statuses, assignees, deliveries and audit entries in a handful of statements.
 *
 *   tag            the review tagged (server/workflow insertTagPairs, which also delivers to destinations filtered by
 *                  that tag)
 *   assign         the review assigned to a member of the organisation now (someone removed since is skipped)
 *   set_status     the review's status set (its reason cleared)
 *   notify         the review to that destination once, through the delivery engine (data.ts queueNotifies)
 *   zendesk_ticket server/zendesk requestTicket (queued; the Zendesk call is its job's, after the commit)
 *   reply          recorded as pending: drafting may call a language model, so the reply is queued after the pass
 *                  commits, outside any transaction (replies.ts)
 *
 * Actions apply in order — firing by firing, each firing's actions as the rule lists them — as if each ran alone: two
 * rules assigning one review leave it with the second's assignee, both changes in the audit log; the second of two
 * rules setting the same tag finds it `unchanged`. What is already so is `unchanged`, and no audit entry. An action
 * the state of things refuses — a tag deleted since, an assignee no longer a member, a destination paused — is
 * `skipped` with the reason, and the rule's other actions still run. Every change names the rule in the audit log
 * (the actor `{ kind: 'rule' }` of server/workflow, one entry per rule, change and pass; `rule "name"` for tickets).
 */
import type { DB } from '../db/client';
import { HttpError } from '../http/errors';
import { recordAudits, type AuditInput } from '../org/data';
import { insertTagPairs, workflowAuditEntry, workflowKey, workflowStates, writeAssignees, writeStatuses, type WorkflowActor, type WorkflowState } from '../workflow/data';
import { requestTicket } from '../zendesk/tickets';
import type { WorkflowStatus } from '@/shared/workflow';
import { notifyKey, queueNotifies, type PassReferences, type ReviewForRules, type StoredRule } from './data';
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

/** A rule that matched a version of a review for the first time: its actions run. */
export type NewFiring = { orgId: string; rule: Pick<StoredRule, 'id' | 'name' | 'actions'>; review: ReviewForRules };

export const NOT_A_MEMBER = 'assignee_id: that person is not a member of your organisation.';
export const DESTINATION_INACTIVE = 'the destination is paused, stopped or no longer there';
const notATag = (tagId: string) => `tag ${tagId.slice(0, 40)} is not a tag of your organisation.`;

const skipped = (type: RuleAction['type'], reason: string): ActionOutcome => ({ type, outcome: 'skipped', reason });

/** The action's refusal in words (an HttpError's message: "that person is not a member…"), or rethrown. */
function refusal(type: RuleAction['type'], err: unknown): ActionOutcome {
  if (err instanceof HttpError && err.status < 500) return skipped(type, err.message);
  throw err;
}

const actorOf = (rule: NewFiring['rule']): WorkflowActor => ({ kind: 'rule', ruleId: rule.id, ruleName: rule.name });

/** Audit entries of one pass: one per organisation, rule, kind of change and value, naming every review it changed. */
function auditBook() {
  const groups = new Map<string, { orgId: string; rule: NewFiring['rule']; action: string; details: Record<string, unknown>; reviewIds: Set<string> }>();
  return {
    add(orgId: string, rule: NewFiring['rule'], action: string, value: string, details: Record<string, unknown>, reviewId: number) {
      const key = `${orgId}\u0000${rule.id}\u0000${action}\u0000${value}`;
      const g = groups.get(key) ?? groups.set(key, { orgId, rule, action, details, reviewIds: new Set() }).get(key)!;
      g.reviewIds.add(String(reviewId));
    },
    entries: (): AuditInput[] => [...groups.values()].map((g) => workflowAuditEntry(g.orgId, actorOf(g.rule), g.action, [...g.reviewIds], g.details)),
  };
}

type Slot = { firing: number; action: number };

/** Runs every new firing's actions (see the top); each firing's outcomes, in its rule's order. */
export async function runActions(trx: DB, firings: NewFiring[], refs: PassReferences, effects: PassEffects): Promise<ActionOutcome[][]> {
  const outcomes: ActionOutcome[][] = firings.map((f) => f.rule.actions.map((a) => ({ type: a.type, outcome: 'pending' as const })));
  const set = (s: Slot, o: ActionOutcome) => (outcomes[s.firing][s.action] = o);
  const audits = auditBook();

  // Statuses and assignees start from what is stored and change action by action, in order.
  const needsState = firings.filter((f) => f.rule.actions.some((a) => a.type === 'assign' || a.type === 'set_status'));
  const states = await workflowStates(needsState.map((f) => ({ orgId: f.orgId, reviewId: f.review.id })), trx);
  const statusWrites = new Map<string, { orgId: string; reviewId: number; status: WorkflowStatus }>();
  const assigneeWrites = new Map<string, { orgId: string; reviewId: number; assigneeId: string }>();
  // A tag pair or a delivery: the first action asking for it is the one that did it (if the statement made it new).
  const tagClaims = new Map<string, { orgId: string; reviewId: number; tagId: string; slot: Slot; rule: NewFiring['rule'] }>();
  const tagRepeats: Slot[] = [];
  const notifyClaims = new Map<string, { row: { destinationId: string; reviewId: number; appKey: string; version: number }; slot: Slot }>();
  const notifyRepeats: Slot[] = [];
  const tickets: Array<{ slot: Slot; firing: NewFiring }> = [];

  firings.forEach((f, fi) => {
    f.rule.actions.forEach((a, ai) => {
      const slot = { firing: fi, action: ai };
      switch (a.type) {
        case 'tag': {
          if (refs.tags.get(a.tag_id)?.orgId !== f.orgId) return set(slot, skipped('tag', notATag(a.tag_id)));
          const key = `${f.orgId}:${f.review.id}:${a.tag_id}`;
          if (tagClaims.has(key)) tagRepeats.push(slot);
          else tagClaims.set(key, { orgId: f.orgId, reviewId: f.review.id, tagId: a.tag_id, slot, rule: f.rule });
          return;
        }
        case 'assign': {
          if (refs.users.get(a.user_id)?.orgId !== f.orgId) return set(slot, skipped('assign', NOT_A_MEMBER));
          const key = workflowKey(f.orgId, f.review.id);
          const state = states.get(key);
          if (!state || state.assigneeId === a.user_id) return set(slot, { type: 'assign', outcome: 'unchanged' });
          Object.assign(state, { assigneeId: a.user_id, stored: true } satisfies Partial<WorkflowState>);
          assigneeWrites.set(key, { orgId: f.orgId, reviewId: f.review.id, assigneeId: a.user_id });
          audits.add(f.orgId, f.rule, 'review.assigned', a.user_id, { assignee_id: a.user_id }, f.review.id);
          return set(slot, { type: 'assign', outcome: 'done' });
        }
        case 'set_status': {
          const key = workflowKey(f.orgId, f.review.id);
          const state = states.get(key);
          // As setStatus: a change of status, or of the reason (cleared) on a stored row.
          if (!state || (state.status === a.status && !(state.stored && state.reason !== null))) return set(slot, { type: 'set_status', outcome: 'unchanged' });
          Object.assign(state, { status: a.status, reason: null, stored: true } satisfies Partial<WorkflowState>);
          statusWrites.set(key, { orgId: f.orgId, reviewId: f.review.id, status: a.status });
          audits.add(f.orgId, f.rule, 'review.status_changed', a.status, { status: a.status }, f.review.id);
          return set(slot, { type: 'set_status', outcome: 'done' });
        }
        case 'notify': {
          const dest = refs.destinations.get(a.destination_id);
          if (!dest || dest.orgId !== f.orgId || dest.status !== 'active') return set(slot, skipped('notify', DESTINATION_INACTIVE));
          const row = { destinationId: a.destination_id, reviewId: f.review.id, appKey: f.review.app_key, version: f.review.version };
          const key = notifyKey(row);
          if (notifyClaims.has(key)) notifyRepeats.push(slot);
          else notifyClaims.set(key, { row, slot });
          return;
        }
        case 'zendesk_ticket':
          tickets.push({ slot, firing: f });
          return;
        case 'reply':
          effects.replies = true;
          // Its settings go with it: the rule may change before it runs (replies.ts).
          return set(slot, { type: 'reply', outcome: 'pending', template_id: a.template_id, mode: a.mode, daily_cap: a.daily_cap, approval_destination_id: a.approval_destination_id ?? null });
      }
    });
  });

  // Tags, one statement per organisation (a pass is nearly always one).
  const byOrg = new Map<string, Array<{ reviewId: number; tagId: string }>>();
  for (const c of tagClaims.values()) (byOrg.get(c.orgId) ?? byOrg.set(c.orgId, []).get(c.orgId)!).push({ reviewId: c.reviewId, tagId: c.tagId });
  const added = new Set<string>();
  for (const [orgId, pairs] of byOrg) {
    const r = await insertTagPairs(orgId, pairs, trx);
    for (const x of r.added) added.add(`${orgId}:${x.review_id}:${x.tag_id}`);
    if (r.queued > 0) effects.deliveries = true;
  }
  for (const [key, c] of tagClaims) {
    const done = added.has(key);
    set(c.slot, { type: 'tag', outcome: done ? 'done' : 'unchanged' });
    if (done) audits.add(c.orgId, c.rule, 'review.tagged', c.tagId, { tags: [refs.tags.get(c.tagId)!.name] }, c.reviewId);
  }
  for (const slot of tagRepeats) set(slot, { type: 'tag', outcome: 'unchanged' });

  // Statuses before assignees: a review new to the workflow gets its row from the first, its assignee from the second.
  await writeStatuses([...statusWrites.values()], trx);
  await writeAssignees([...assigneeWrites.values()], trx);

  const queued = await queueNotifies([...notifyClaims.values()].map((c) => c.row), trx);
  if (queued.size > 0) effects.deliveries = true;
  for (const [key, c] of notifyClaims) set(c.slot, queued.has(key) ? { type: 'notify', outcome: 'queued' } : { type: 'notify', outcome: 'unchanged', reason: 'the destination already has this review' });
  for (const slot of notifyRepeats) set(slot, { type: 'notify', outcome: 'unchanged', reason: 'the destination already has this review' });

  // Tickets are rare and each checks the connection and the review's ticket: one at a time.
  for (const { slot, firing } of tickets) {
    try {
      const r = await requestTicket({ orgId: firing.orgId, reviewId: String(firing.review.id), actor: actorOf(firing.rule) }, trx);
      if (r.outcome === 'not_connected') set(slot, skipped('zendesk_ticket', 'Zendesk is not connected (Integrations → Zendesk)'));
      else set(slot, r.outcome === 'exists' ? { type: 'zendesk_ticket', outcome: 'unchanged', reason: 'the review has its ticket already' } : { type: 'zendesk_ticket', outcome: 'queued' });
    } catch (err) {
      set(slot, refusal('zendesk_ticket', err));
    }
  }

  await recordAudits(audits.entries(), trx);
  return outcomes;
}
