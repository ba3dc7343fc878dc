/**
 * The plan's features, checked where one is used: a feature the organisation's plan does not include is a 402
 * `plan_limit` naming the plan that first includes it (the dashboard shows it with an Upgrade button).
 */
import { HttpError } from '../http/errors';
import { getOrgPlan } from './data';
import { billingEnabled, planFor } from './plans';
import { FEATURE_WORDS, PLANS, type FeatureKey } from '@/shared/plans';

/** The refusal for `feature` on `planName`. */
export function featureError(feature: FeatureKey, planName: string): HttpError {
  const words = FEATURE_WORDS[feature];
  const lift = PLANS.find((p) => p.features[feature]);
  const next = !billingEnabled()
    ? 'This server’s operator sets the plan.'
    : lift
      ? `Upgrade to ${lift.name} for ${words.line.charAt(0).toLowerCase()}${words.line.slice(1)}.`
      : 'Contact us for a plan that includes it.';
  return new HttpError(402, 'plan_limit', `Your ${planName} plan does not include ${words.label.toLowerCase()}. ${next}`);
}

/** Refuses (402) when the organisation's plan does not include `feature`. */
export async function assertFeature(orgId: string, feature: FeatureKey): Promise<void> {
  const row = await getOrgPlan(orgId);
  if (!row) return; // the caller's own lookup reports a missing organisation
  const plan = planFor(row);
  if (!plan.features[feature]) throw featureError(feature, plan.name);
}

/** Whether the organisation's plan includes `feature` (false for an organisation that does not exist). */
export async function orgHasFeature(orgId: string, feature: FeatureKey): Promise<boolean> {
  const row = await getOrgPlan(orgId);
  return !!row && planFor(row).features[feature];
}
