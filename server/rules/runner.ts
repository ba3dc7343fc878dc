/**
 * Runs the organisations' rules on the queued reviews (rule_queue, filled by the triggers of migration 0040 in the
 * statement that stores or edits a review). One pass:
 *
 *   BEGIN → take up to PASS_SIZE queued reviews (FOR UPDATE SKIP LOCKED: another worker takes the next ones)
 *         → read them, the organisations watching their apps that have enabled rules, those rules, the reviews' tags
 *           and what the rules' actions name (tags, members, destinations)
 *         → in memory, per review and organisation: the rules in order (plan.ts); a rule with stop_after that matched
 *           ends the organisation's rules for the review
 *         → record every match's firing in one statement (unique per rule × review × version: a rule fires once per
 *           version, whoever runs it again) and run the actions of the firings that are new (actions.ts: one
 *           statement per kind of change for the whole pass), then their outcomes
 *         → delete the queue rows → COMMIT
 *
 * Everything a pass writes — firings, tags, statuses, deliveries, queued replies and tickets, the audit log — commits
 * with the queue rows' delete, or none of it does: a crash mid-pass leaves the reviews queued and nothing half done.
 * A pass that fails is run again review by review, each in its own transaction, so one review that cannot be
 * evaluated (a database error in an action) does not hold the others; it is tried MAX_ATTEMPTS times, at the back of
 * the queue each time, then dropped with an error log.
 *
 * Which reviews (plan.ts): a new review only when the store dates it at or after the organisation added the app, and
 * every edit, as its newest version.
 */
import { getDb, type DB } from '../db/client';
import { log } from '../log';
import { wake } from '../monitor/wake';
import {
  countFailedAttempt,
  dropQueued,
  enabledRulesOf,
  firingKey,
  firedAlready,
  insertFirings,
  lockQueued,
  passReferences,
  reviewsForRules,
  tagsOfReviewsInOrgs,
  takeQueued,
  watchersWithRules,
  type QueuedReview,
} from './data';
import { runActions, type ActionOutcome, type NewFiring, type PassEffects } from './actions';
import { planFirings, referencedBy } from './plan';
import { runPendingReplies } from './replies';

/**
 * Reviews per pass. A pass holds its transaction open while it runs (on PGlite, the one connection), but it writes in
 * a fixed number of statements whatever its size (actions.ts), so a large pass costs little more time than a small
 * one: 500 reviews evaluate in ~15 ms on this machine, and a poll's reviews (an App Store feed's 500) fit in one pass.
 */
export const PASS_SIZE = 500;
export const MAX_ATTEMPTS = 5;

export type Firing = { ruleId: string; reviewId: number; outcomes: ActionOutcome[] };

const firingOf = (p: NewFiring) => ({ ruleId: p.rule.id, reviewId: p.review.id, reviewVersion: p.review.version });

/**
 * One transaction over `items` (already locked by the caller): what exists read once, the rules run in memory
 * (plan.ts), the actions of the firings not recorded before run (actions.ts), and those firings recorded with their
 * outcomes in one statement.
 */
async function evaluateItems(trx: DB, items: QueuedReview[], effects: PassEffects): Promise<Firing[]> {
  const reviews = new Map((await reviewsForRules(items.map((x) => x.review_id), trx)).map((r) => [r.id, r]));
  const watchers = await watchersWithRules([...new Set([...reviews.values()].map((r) => r.app_key))], trx);
  const rulesByOrg = await enabledRulesOf([...new Set(watchers.map((w) => w.org_id))], trx);
  const orgIds = [...rulesByOrg.keys()];
  const tags = await tagsOfReviewsInOrgs(orgIds, [...reviews.keys()], trx);
  const refs = await passReferences(referencedBy([...rulesByOrg.values()].flat()), trx);
  const planned = planFirings({ items, reviews, watchers, rulesByOrg, tags, refs });
  const already = await firedAlready(planned.map(firingOf), trx);
  const fresh = planned.filter((p) => !already.has(firingKey(firingOf(p))));
  const outcomes = await runActions(trx, fresh, refs, effects);
  const recorded = await insertFirings(
    fresh.map((f, i) => ({ orgId: f.orgId, ...firingOf(f), outcomes: outcomes[i], replyPending: outcomes[i].some((o) => o.outcome === 'pending') })),
    trx,
  );
  // Cannot happen while a version is queued once and its queue row locked (firedAlready); said loudly if it ever does.
  if (recorded < fresh.length) log.error('rules pass: firings recorded by another pass meanwhile', { expected: fresh.length, recorded });
  await dropQueued(trx, items);
  return fresh.map((f, i) => ({ ruleId: f.rule.id, reviewId: f.review.id, outcomes: outcomes[i] }));
}

export type PassResult = { evaluated: number; fired: number; failed: number };

/**
 * One pass over the queue (see the top): the number of queued reviews taken, rules fired, and reviews that failed.
 * Wakes this process's delivery loop after the commit when a pass queued deliveries.
 */
export async function runRulesPass(limit = PASS_SIZE, db?: DB): Promise<PassResult> {
  const d = db ?? (await getDb());
  const effects: PassEffects = { deliveries: false };
  let taken: QueuedReview[] = [];
  try {
    const fired = await d.transaction().execute(async (trx) => {
      taken = await takeQueued(trx, limit);
      return taken.length ? evaluateItems(trx, taken, effects) : [];
    });
    if (effects.deliveries) wake('deliver');
    if (effects.replies) await runPendingReplies();
    return { evaluated: taken.length, fired: fired.length, failed: 0 };
  } catch (err) {
    if (taken.length === 0) throw err;
    log.warn('rules pass failed; evaluating its reviews one by one', { reviews: taken.length, err });
  }
  // One by one: each review in its own transaction, so one that fails holds nothing else.
  let fired = 0;
  let failed = 0;
  for (const item of taken) {
    const one: PassEffects = { deliveries: false };
    try {
      fired += await d.transaction().execute(async (trx) => {
        return (await lockQueued(trx, item)) ? (await evaluateItems(trx, [item], one)).length : 0;
      });
      if (one.deliveries) wake('deliver');
      if (one.replies) await runPendingReplies();
    } catch (err) {
      failed++;
      const attempts = await countFailedAttempt(item, d);
      if (attempts >= MAX_ATTEMPTS) {
        await d.transaction().execute((trx) => dropQueued(trx, [item]));
        log.error('rules not run on a review: it failed too many times', { reviewId: item.review_id, version: item.review_version, attempts, err });
      } else {
        log.warn('rules failed on a review; it will be tried again', { reviewId: item.review_id, version: item.review_version, attempts, err });
      }
    }
  }
  return { evaluated: taken.length, fired, failed };
}

/** Passes until the queue is empty (or `maxPasses`): what tests and the bench call to evaluate everything queued now. */
export async function drainRuleQueue(maxPasses = 1000, db?: DB): Promise<PassResult> {
  const total: PassResult = { evaluated: 0, fired: 0, failed: 0 };
  for (let i = 0; i < maxPasses; i++) {
    const r = await runRulesPass(PASS_SIZE, db);
    total.evaluated += r.evaluated;
    total.fired += r.fired;
    total.failed += r.failed;
    if (r.evaluated < PASS_SIZE || r.failed === r.evaluated) break;
  }
  return total;
}
