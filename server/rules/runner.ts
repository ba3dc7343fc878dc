/**
 * Runs the organisations' rules on the queued reviews (rule_queue, filled by the triggers of migration 0040 in the
 * statement that stores or edits a review). One pass:
 *
 *   BEGIN → take up to PASS_SIZE queued reviews (FOR UPDATE SKIP LOCKED: another worker takes the next ones)
 *         → read them, the organisations watching their apps that have enabled rules, those rules, the reviews' tags
 *         → per review and organisation: the rules in order; a match records its firing (unique per rule × review ×
 *           version: a rule fires once per version, whoever runs it again) and, only when that insert is new, runs the
 *           rule's actions; a rule with stop_after that matched ends the organisation's rules for the review
 *         → delete the queue rows → COMMIT
 *
 * Everything a pass writes — firings, tags, statuses, deliveries, queued replies and tickets, the audit log — commits
 * with the queue rows' delete, or none of it does: a crash mid-pass leaves the reviews queued and nothing half done.
 * A pass that fails is run again review by review, each in its own transaction, so one review that cannot be
 * evaluated (a database error in an action) does not hold the others; it is tried MAX_ATTEMPTS times, at the back of
 * the queue each time, then dropped with an error log.
 *
 * Which reviews: a new review only when the store dates it at or after the organisation added the app (to the
 * second, as the feeds are: the history stored quietly when an app is added is not new work, and must not post to
 * channels or reply), and every edit. The version queued must still be the review's: a review edited again before its
 * pass is evaluated once, as its newest version.
 */
import { getDb, type DB } from '../db/client';
import { log } from '../log';
import { wake } from '../monitor/wake';
import { compileConditions, type Predicate, type RuleReview } from './compile';
import { dropQueued, countFailedAttempt, lockQueued, enabledRulesOf, recordFiring, reviewsForRules, saveOutcomes, tagsOfReviews, takeQueued, watchersWithRules, type QueuedReview, type ReviewForRules, type StoredRule } from './data';
import { runAction, type ActionOutcome, type PassEffects } from './actions';
import { runPendingReplies } from './replies';

/** Reviews per pass: a pass holds its transaction open while it runs (on PGlite, the one connection). */
export const PASS_SIZE = 50;
export const MAX_ATTEMPTS = 5;

const compiled = new Map<string, { stamp: number; predicate: Predicate }>();

/** The rule's predicate, compiled once per version of the rule (its updated_at) and kept across passes. */
export function predicateOf(rule: Pick<StoredRule, 'id' | 'updated_at' | 'conditions' | 'unreadable'>): Predicate {
  const stamp = new Date(rule.updated_at).getTime();
  const hit = compiled.get(rule.id);
  if (hit && hit.stamp === stamp) return hit.predicate;
  const predicate = rule.unreadable ? () => false : compileConditions(rule.conditions);
  if (compiled.size > 10_000) compiled.clear();
  compiled.set(rule.id, { stamp, predicate });
  return predicate;
}

/** What a condition reads of a stored review; `tags` is kept (and grows as rules tag it) for the whole evaluation. */
export function ruleReviewOf(r: ReviewForRules, tags: Set<string>): RuleReview & { tagIds: Set<string> } {
  return {
    rating: r.rating,
    title: r.title,
    body: r.body,
    textLanguage: r.text_language,
    storeLanguage: r.language || null,
    country: r.country,
    appVersion: r.app_version,
    sentiment: r.sentiment,
    tagIds: tags,
    translations: r.translations,
  };
}

/** Whether the rule looks at reviews of this app. */
export const ruleCovers = (rule: Pick<StoredRule, 'apps'>, appKey: string) => rule.apps.length === 0 || rule.apps.includes(appKey);

/** A new review the store dates before the organisation added the app is history, not new work (see the top). */
export function isNewWork(review: Pick<ReviewForRules, 'version' | 'updated_at'>, addedAt: Date): boolean {
  return review.version > 0 || review.updated_at.getTime() >= Math.floor(addedAt.getTime() / 1000) * 1000;
}

export type Firing = { ruleId: string; reviewId: number; outcomes: ActionOutcome[] };

/** The rules of one organisation on one review, in order (see the top). */
export async function evaluateReview(
  orgId: string,
  rules: StoredRule[],
  review: ReviewForRules,
  tags: Set<string>,
  db: DB,
  effects: PassEffects,
): Promise<Firing[]> {
  const facts = ruleReviewOf(review, tags);
  const fired: Firing[] = [];
  for (const rule of rules) {
    if (!ruleCovers(rule, review.app_key) || !predicateOf(rule)(facts)) continue;
    const firingId = await recordFiring({ orgId, ruleId: rule.id, reviewId: review.id, reviewVersion: review.version }, db);
    if (firingId !== null) {
      const outcomes: ActionOutcome[] = [];
      for (const action of rule.actions) outcomes.push(await runAction({ orgId, rule, review, facts, db, effects }, action));
      await saveOutcomes(firingId, outcomes, outcomes.some((o) => o.outcome === 'pending'), db);
      fired.push({ ruleId: rule.id, reviewId: review.id, outcomes });
    }
    if (rule.stop_after) break;
  }
  return fired;
}

/** One transaction over `items` (already locked by the caller, or locked here when `take` is given). */
async function evaluateItems(trx: DB, items: QueuedReview[], effects: PassEffects): Promise<Firing[]> {
  const reviews = new Map((await reviewsForRules(items.map((x) => x.review_id), trx)).map((r) => [r.id, r]));
  const watchers = await watchersWithRules([...new Set([...reviews.values()].map((r) => r.app_key))], trx);
  const rulesByOrg = await enabledRulesOf([...new Set(watchers.map((w) => w.org_id))], trx);
  const fired: Firing[] = [];
  const tagsByOrg = new Map<string, Map<number, Set<string>>>();
  for (const orgId of rulesByOrg.keys()) tagsByOrg.set(orgId, await tagsOfReviews(orgId, [...reviews.keys()], trx));
  for (const item of items) {
    const review = reviews.get(item.review_id);
    // Gone, or edited again since it was queued (the newer version has its own row).
    if (!review || review.version !== item.review_version) continue;
    for (const w of watchers) {
      if (w.app_key !== review.app_key || !isNewWork(review, w.added_at)) continue;
      const rules = rulesByOrg.get(w.org_id);
      if (!rules?.length) continue;
      const tags = tagsByOrg.get(w.org_id)?.get(review.id) ?? new Set<string>();
      fired.push(...(await evaluateReview(w.org_id, rules, review, tags, trx, effects)));
    }
  }
  await dropQueued(trx, items);
  return fired;
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
