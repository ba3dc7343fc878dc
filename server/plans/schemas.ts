/** The answer shapes of plans and usage, shared by GET v1/org and GET v1/org/billing (they feed the OpenAPI document). */
import { z } from 'zod';
import { FEATURE_KEYS, LIMIT_KEYS, LIMIT_WORDS, FEATURE_WORDS, type Features, type Limits } from '@/shared/plans';

const limit = (key: (typeof LIMIT_KEYS)[number]) =>
  z.number().int().nullable().meta({ description: `${LIMIT_WORDS[key].label}: null is unlimited, 0 not included.` });

export const limitsShape = z.object(Object.fromEntries(LIMIT_KEYS.map((k) => [k, limit(k)])) as Record<(typeof LIMIT_KEYS)[number], ReturnType<typeof limit>>);
export const featuresShape = z.object(
  Object.fromEntries(FEATURE_KEYS.map((k) => [k, z.boolean().meta({ description: FEATURE_WORDS[k].label })])) as Record<(typeof FEATURE_KEYS)[number], z.ZodBoolean>,
);
export const usageShape = z.object({
  apps: z.number().int(),
  channels: z.number().int().meta({ description: 'Destinations delivering or waiting for their e-mail confirmation (paused and disabled ones do not count).' }),
  members: z.number().int(),
  api_keys: z.number().int().meta({ description: 'API keys not revoked.' }),
  ask_arb_questions: z.number().int().meta({ description: 'Ask ARB questions this calendar month (UTC).' }),
  api_calls: z.number().int().meta({ description: 'Public-API calls this calendar month (UTC).' }),
});
export const planIdShape = z.string().meta({ description: "free, startup, business, enterprise — or 'unlimited' on a server without billing (SELF_HOSTED_PLAN)." });

/** An organisation's usage counts, as countUsage (data.ts) reads them: the answer's shape is their one definition. */
export type UsageCounts = z.output<typeof usageShape>;

// The plan is typed by what is read of it (plans.ts's EffectivePlan fits), so this file imports nothing of plans/.
export const planJson = (plan: { id: string; name: string; limits: Limits; features: Features }, usage: UsageCounts) => ({ plan: plan.id, plan_name: plan.name, usage, limits: plan.limits, features: plan.features });
