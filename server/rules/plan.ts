/**
 * Which rules fire on which reviews in a pass: pure, in memory, before anything is written (runner.ts).
 *
 * Per review and organisation watching its app, the organisation's rules in order: a rule that covers the app and
 * whose predicate holds fires; its `tag` actions (of tags the organisation has) count for the rules after it, so a
 * later rule's `tags_any` sees them; a rule with `stop_after` that fired ends the organisation's rules for the review.
 * Only new work is evaluated: a new review the store dates at or after the organisation added the app (to the second,
 * as the feeds are: the history stored quietly when an app is added must not post to channels or reply), and every
 * edit. The version queued must still be the review's: a review edited again before its pass is evaluated once, as its
 * newest version.
 */
import { compileConditions, type Predicate, type RuleReview } from './compile';
import { workflowKey } from '../workflow/data';
import { type PassReferences, type QueuedReview, type ReviewForRules, type StoredRule } from './data';

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

/** A rule that matched a review: its firing, if it is new, runs the rule's actions (actions.ts). */
export type PlannedFiring = { orgId: string; rule: StoredRule; review: ReviewForRules };

/** Everything the pass's rules name, for one read of what exists (data.ts passReferences). */
export function referencedBy(rules: Iterable<StoredRule>): { tags: string[]; users: string[]; destinations: string[] } {
  const tags = new Set<string>();
  const users = new Set<string>();
  const destinations = new Set<string>();
  for (const rule of rules) {
    for (const a of rule.actions) {
      if (a.type === 'tag') tags.add(a.tag_id);
      else if (a.type === 'assign') users.add(a.user_id);
      else if (a.type === 'notify') destinations.add(a.destination_id);
    }
  }
  return { tags: [...tags], users: [...users], destinations: [...destinations] };
}

/** The rules of one organisation on one review, in order (see the top); `tags` grows with the tags they set. */
export function firingsOnReview(orgId: string, rules: StoredRule[], review: ReviewForRules, tags: Set<string>, refs: Pick<PassReferences, 'tags'>): PlannedFiring[] {
  const facts = ruleReviewOf(review, tags);
  const fired: PlannedFiring[] = [];
  for (const rule of rules) {
    if (!ruleCovers(rule, review.app_key) || !predicateOf(rule)(facts)) continue;
    fired.push({ orgId, rule, review });
    for (const a of rule.actions) if (a.type === 'tag' && refs.tags.get(a.tag_id)?.orgId === orgId) facts.tagIds.add(a.tag_id);
    if (rule.stop_after) break;
  }
  return fired;
}

/** Every rule that matches the queued reviews, review by review in queue order (see the top). */
export function planFirings(input: {
  items: QueuedReview[];
  reviews: Map<number, ReviewForRules>;
  watchers: Array<{ org_id: string; app_key: string; added_at: Date }>;
  rulesByOrg: Map<string, StoredRule[]>;
  tags: Map<string, Set<string>>;
  refs: Pick<PassReferences, 'tags'>;
}): PlannedFiring[] {
  const fired: PlannedFiring[] = [];
  for (const item of input.items) {
    const review = input.reviews.get(item.review_id);
    // Gone, or edited again since it was queued (the newer version has its own row).
    if (!review || review.version !== item.review_version) continue;
    for (const w of input.watchers) {
      if (w.app_key !== review.app_key || !isNewWork(review, w.added_at)) continue;
      const rules = input.rulesByOrg.get(w.org_id);
      if (!rules?.length) continue;
      const tags = new Set(input.tags.get(workflowKey(w.org_id, review.id)));
      fired.push(...firingsOnReview(w.org_id, rules, review, tags, input.refs));
    }
  }
  return fired;
}
