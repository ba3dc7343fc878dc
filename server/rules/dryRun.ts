/**
 * A rule's dry run (POST v1/org/rules/{id}/test): the rule's conditions over the newest DRY_RUN_REVIEWS reviews of
 * its apps (every app of the organisation when it names none), with the same predicate the runner uses, and for each
 * review it matches what its actions would do — in words, from what is stored now (a tag it already has, a reply it
 * already has, a review too old to reply to, an earlier rule that matches first and stops the rules after it).
 * It writes nothing: no firing, no tag, no delivery, no reply. The rule may be disabled (try it before switching it
 * on); its order among the enabled rules is the one the runner would use.
 */
import { AUTO_REPLY_MAX_AGE_DAYS } from '@/shared/replies';
import { WORKFLOW_STATUS_LABELS } from '@/shared/workflow';
import type { Membership } from '../org/membership';
import { appKeysOf, recentReviews, referenceNames, repliedReviews, rulesOf, tagsOfReviews, type ReviewForRules, type StoredRule } from './data';
import { predicateOf, ruleCovers, ruleReviewOf } from './plan';
import { ruleOrNotFound } from './service';
import type { RuleAction } from './schema';

export const DRY_RUN_REVIEWS = 200;
const EXCERPT_CHARS = 160;

export type DryRunMatch = {
  review_id: string;
  app_key: string;
  rating: number;
  author: string;
  excerpt: string;
  written_at: string | null;
  updated_at: string;
  /** What would happen, one sentence per action (or why nothing would). */
  would: string[];
  /** An earlier enabled rule with stop_after that matches this review first: this rule would not run on it. */
  stopped_by: { id: string; name: string } | null;
};

export type DryRun = { rule_id: string; checked: number; matched: number; reviews: DryRunMatch[] };

type Names = Awaited<ReturnType<typeof referenceNames>>;

function excerpt(r: ReviewForRules): string {
  const text = [r.title, r.body].filter(Boolean).join(' — ').replace(/\s+/g, ' ').trim();
  const chars = [...text];
  return chars.length > EXCERPT_CHARS ? `${chars.slice(0, EXCERPT_CHARS - 1).join('')}…` : text;
}

function sentence(a: RuleAction, r: ReviewForRules, tags: Set<string>, replied: boolean, names: Names): string {
  switch (a.type) {
    case 'tag': {
      const name = names.tags.get(a.tag_id) ?? 'a deleted tag';
      return tags.has(a.tag_id) ? `already tagged “${name}”` : `tag it “${name}”`;
    }
    case 'assign':
      return names.users.has(a.user_id) ? `assign it to ${names.users.get(a.user_id)}` : 'assign nobody: the member it names has left the organisation';
    case 'set_status':
      return `set its status to ${WORKFLOW_STATUS_LABELS[a.status]}`;
    case 'notify':
      return names.destinations.has(a.destination_id) ? `post it to ${names.destinations.get(a.destination_id)}` : 'post it nowhere: the destination was deleted';
    case 'reply': {
      const template = names.templates.get(a.template_id);
      if (!template) return 'no reply: the template was deleted';
      if (replied) return 'no reply: it already has one';
      if (Date.now() - r.updated_at.getTime() > AUTO_REPLY_MAX_AGE_DAYS * 86_400_000) return `no reply: it is more than ${AUTO_REPLY_MAX_AGE_DAYS} days old`;
      return a.mode === 'auto' ? `reply with “${template}” (sent to the store, within ${a.daily_cap} a day)` : `draft a reply from “${template}” for approval (within ${a.daily_cap} a day)`;
    }
    case 'zendesk_ticket':
      return 'open a Zendesk ticket for it (once)';
  }
}

export async function dryRunRule(m: Membership, ruleId: string): Promise<DryRun> {
  const rule = await ruleOrNotFound(m, ruleId);
  const own = await appKeysOf(m.orgId);
  const apps = rule.apps.length ? own.filter((k) => rule.apps.includes(k)) : own;
  const reviews = await recentReviews(apps, DRY_RUN_REVIEWS);
  const ids = reviews.map((r) => r.id);
  const [tags, replied, names, all] = await Promise.all([tagsOfReviews(m.orgId, ids), repliedReviews(m.orgId, ids), referenceNames(m.orgId), rulesOf(m.orgId)]);
  // The enabled rules before this one that stop the rules after them.
  const stoppers: StoredRule[] = all.filter((r) => r.enabled && r.stop_after && r.id !== rule.id && r.position < rule.position);
  const predicate = predicateOf(rule);
  const matches: DryRunMatch[] = [];
  for (const review of reviews) {
    const reviewTags = new Set(tags.get(review.id) ?? []);
    const facts = ruleReviewOf(review, reviewTags);
    if (!predicate(facts)) continue;
    const stopper = stoppers.find((s) => ruleCovers(s, review.app_key) && predicateOf(s)(facts)) ?? null;
    const would = stopper
      ? [`nothing: the earlier rule “${stopper.name}” matches it first and stops the rules after it`]
      : rule.actions.map((a) => sentence(a, review, reviewTags, replied.has(review.id), names));
    matches.push({
      review_id: String(review.id),
      app_key: review.app_key,
      rating: review.rating,
      author: review.author_name,
      excerpt: excerpt(review),
      written_at: review.written_at ? review.written_at.toISOString() : null,
      updated_at: review.updated_at.toISOString(),
      would,
      stopped_by: stopper ? { id: stopper.id, name: stopper.name } : null,
    });
  }
  return { rule_id: rule.id, checked: reviews.length, matched: matches.length, reviews: matches };
}
