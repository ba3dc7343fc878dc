/**
 * A rule's `reply` action, after the pass that matched it committed. Drafting may ask a language model (seconds), and
 * an automatic reply's first attempt calls the store: neither may run inside the pass's transaction (on the embedded
 * database that would hold its one connection). So the pass records the firing with `reply_pending` and the action's
 * settings, and this module hands each pending reply to server/replies queueRuleReply — its own transaction, its
 * checks (never a review with a reply, never twice, never past 14 days, the daily cap, paused apps) and its audit
 * entry naming the rule — then writes the outcome into the firing.
 *
 * A process that stops between the commit and this leaves the firing pending: the next pass (any worker) finds it.
 * Two workers handing over the same pending reply at once are safe: queueRuleReply records one reply per review
 * (the second is skipped), and only the first outcome is written (`reply_pending` still set).
 */
import { log } from '../log';
import { queueRuleReply } from '../replies/ruleReplies';
import { finishPendingReply, pendingReplies } from './data';
import type { ActionOutcome } from './actions';

/** The reply action as the firing keeps it until it runs. */
export type PendingReply = { type: 'reply'; outcome: 'pending'; template_id: string; mode: 'approval' | 'auto'; daily_cap: number; approval_destination_id?: string | null };

const GIVE_UP_MS = 3_600_000;

/** Hands up to `limit` pending replies to queueRuleReply (oldest first); how many were pending. */
export async function runPendingReplies(limit = 20): Promise<number> {
  const pending = await pendingReplies(limit);
  for (const p of pending) {
    const i = p.outcomes.findIndex((o) => o.type === 'reply' && o.outcome === 'pending');
    const action = p.outcomes[i] as unknown as PendingReply | undefined;
    let outcome: ActionOutcome;
    if (!action) {
      outcome = { type: 'reply', outcome: 'skipped', reason: 'the reply action could not be read' };
    } else {
      try {
        const r = await queueRuleReply({
          orgId: p.org_id,
          reviewId: String(p.review_id),
          ruleId: p.rule_id,
          ruleName: p.rule_name,
          templateId: action.template_id,
          mode: action.mode,
          dailyCap: action.daily_cap,
          approvalDestinationId: action.approval_destination_id ?? null,
        });
        outcome = { type: 'reply', outcome: r.outcome, ...(r.reason ? { reason: r.reason } : {}) };
      } catch (err) {
        // Left pending for the next pass (a database that went away comes back); given up after an hour.
        const givenUp = Date.now() - p.fired_at.getTime() > GIVE_UP_MS;
        log.error(givenUp ? 'rule reply given up: it failed for an hour' : 'rule reply failed; it will be tried again', { rule: p.rule_id, reviewId: p.review_id, err });
        if (!givenUp) continue;
        outcome = { type: 'reply', outcome: 'skipped', reason: 'the reply could not be drafted' };
      }
    }
    const outcomes = i >= 0 ? p.outcomes.map((o, j) => (j === i ? outcome : o)) : [...p.outcomes, outcome];
    await finishPendingReply(p.id, outcomes);
  }
  return pending.length;
}
