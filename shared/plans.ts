/**
 * The plan catalogue: what each plan costs, how much of each countable thing it allows and which features it
 * includes. The pricing page renders its cards and its comparison from this, the server checks limits against it and
 * the dashboard's Billing page shows usage against it, so the three can never disagree.
 *
 * Neutral and small on purpose: the browser imports it (no server imports, no Stripe price ids — those come from the
 * server's environment, server/plans/prices.ts).
 *
 * A limit is a count: `null` is unlimited, 0 means the plan does not include it.
 */
import { chatPlatformList } from '@/shared/platforms';

export const PLAN_IDS = ['free', 'startup', 'business', 'enterprise'] as const;
export type PlanId = (typeof PLAN_IDS)[number];
export const PAID_PLAN_IDS = ['startup', 'business', 'enterprise'] as const;
export type PaidPlanId = (typeof PAID_PLAN_IDS)[number];

export const LIMIT_KEYS = ['apps', 'channels', 'members', 'ask_arb_questions', 'api_keys', 'api_calls'] as const;
export type LimitKey = (typeof LIMIT_KEYS)[number];
export type Limits = Record<LimitKey, number | null>;

export const FEATURE_KEYS = ['replies', 'translation', 'summaries', 'api', 'trends'] as const;
export type FeatureKey = (typeof FEATURE_KEYS)[number];
export type Features = Record<FeatureKey, boolean>;

/** How each limit is named to people: the pricing comparison, the Billing page's meters and the 402 messages. */
export const LIMIT_WORDS: Record<LimitKey, { label: string; one: string; many: string; perMonth?: true }> = {
  apps: { label: 'Apps', one: 'app', many: 'apps' },
  channels: { label: 'Channels', one: 'channel', many: 'channels' },
  members: { label: 'Team members', one: 'team member', many: 'team members' },
  ask_arb_questions: { label: 'Ask ARB questions a month', one: 'Ask ARB question', many: 'Ask ARB questions', perMonth: true },
  api_keys: { label: 'API keys', one: 'API key', many: 'API keys' },
  api_calls: { label: 'API calls a month', one: 'API call', many: 'API calls', perMonth: true },
};

/** The line each feature adds to the plan that first includes it (in this order), and its name in the comparison. */
export const FEATURE_WORDS: Record<FeatureKey, { label: string; line: string }> = {
  replies: { label: 'Replies', line: 'Replies through App Store Connect and Google Play Developer API' },
  translation: { label: 'Translation', line: 'Translation of reviews and replies' },
  summaries: { label: 'Weekly AI summaries', line: 'Weekly AI summaries by e-mail' },
  api: { label: 'ARB API', line: 'ARB API with your own keys' },
  trends: { label: 'Rating and sentiment trends', line: 'Dashboards with rating and sentiment trends' },
};

export type CatalogPlan = {
  id: PlanId;
  name: string;
  /** US dollars a month. */
  price_monthly: number;
  price_note: string;
  tagline: string;
  limits: Limits;
  features: Features;
  /** Pricing-page lines that are not a limit or a feature the server knows (included in every plan, support, contracts). */
  extras: string[];
  cta_label: string;
  cta_href: string;
  highlighted: boolean;
};

const none: Features = { replies: false, translation: false, summaries: false, api: false, trends: false };

export const PLANS: readonly CatalogPlan[] = [
  {
    id: 'free',
    name: 'Free',
    price_monthly: 0,
    price_note: 'forever',
    tagline: 'For trying ARB on one app.',
    limits: { apps: 1, channels: 1, members: null, ask_arb_questions: 0, api_keys: 0, api_calls: 0 },
    features: none,
    extras: [
      'App Store and Google Play public reviews',
      `${chatPlatformList(', ', { short: true })} or e-mail`,
      'Filters by rating, country, language and keyword',
      'Edited-review tracking',
      'Sentiment and language on every review',
    ],
    cta_label: 'Start free',
    cta_href: '/try-free',
    highlighted: false,
  },
  {
    id: 'startup',
    name: 'Startup',
    price_monthly: 19,
    price_note: 'per month',
    tagline: 'For small teams with a few apps.',
    limits: { apps: 3, channels: 5, members: null, ask_arb_questions: 100, api_keys: 0, api_calls: 0 },
    features: { ...none, replies: true, translation: true, summaries: true },
    extras: [],
    cta_label: 'Start with Startup',
    cta_href: '/try-free',
    highlighted: false,
  },
  {
    id: 'business',
    name: 'Business',
    price_monthly: 59,
    price_note: 'per month',
    tagline: 'For teams that run on reviews.',
    limits: { apps: 15, channels: null, members: null, ask_arb_questions: 1000, api_keys: null, api_calls: null },
    features: { replies: true, translation: true, summaries: true, api: true, trends: true },
    extras: ['Priority e-mail support'],
    cta_label: 'Choose Business',
    cta_href: '/try-free',
    highlighted: true,
  },
  {
    id: 'enterprise',
    name: 'Enterprise',
    price_monthly: 249,
    price_note: 'per month, starting price',
    tagline: 'For portfolios and regulated companies.',
    limits: { apps: null, channels: null, members: null, ask_arb_questions: 1000, api_keys: null, api_calls: null },
    features: { replies: true, translation: true, summaries: true, api: true, trends: true },
    extras: [
      'Dedicated database and instance',
      'Invoice billing and yearly contracts',
      'Data processing agreement',
      'Onboarding call and a named contact',
    ],
    cta_label: 'Talk to us',
    cta_href: '/contact',
    highlighted: false,
  },
];

/** A self-hosted server without billing: every limit lifted, every feature on. */
export const UNLIMITED: { limits: Limits; features: Features } = {
  limits: { apps: null, channels: null, members: null, ask_arb_questions: null, api_keys: null, api_calls: null },
  features: { replies: true, translation: true, summaries: true, api: true, trends: true },
};

export const isPlanId = (v: unknown): v is PlanId => typeof v === 'string' && (PLAN_IDS as readonly string[]).includes(v);

export function planById(id: string): CatalogPlan | undefined {
  return PLANS.find((p) => p.id === id);
}

/** "3 apps", "1 channel", "Unlimited", "None". */
export function limitText(key: LimitKey, value: number | null): string {
  if (value === null) return 'Unlimited';
  if (value === 0) return 'None';
  const w = LIMIT_WORDS[key];
  return `${value.toLocaleString('en-US')} ${value === 1 ? w.one : w.many}`;
}

/** The cheapest plan that allows more than `used` of `key` (the plan that lifts the limit), if any. */
export function planThatLifts(key: LimitKey, used: number): CatalogPlan | undefined {
  return PLANS.find((p) => p.limits[key] === null || p.limits[key]! > used);
}

/**
 * A plan card's feature lines: "Everything in <previous plan>", a line for each feature this plan adds, the Ask ARB
 * allowance when it changes, then its extras.
 */
export function featureLines(plan: CatalogPlan): string[] {
  const i = PLANS.indexOf(plan);
  const before = i > 0 ? PLANS[i - 1] : undefined;
  const lines = before ? [`Everything in ${before.name}`] : [];
  for (const key of FEATURE_KEYS) if (plan.features[key] && !before?.features[key]) lines.push(FEATURE_WORDS[key].line);
  const ask = plan.limits.ask_arb_questions;
  if (ask !== 0 && ask !== before?.limits.ask_arb_questions) lines.push(`Ask ARB — ${ask === null ? 'unlimited questions' : `${ask.toLocaleString('en-US')} questions a month`}`);
  return [...lines, ...plan.extras];
}

/** A plan as the pricing page and /subscribe show it (its limits and lines in words). */
export function pricingCard(plan: CatalogPlan): PricingCard {
  return {
    id: plan.id,
    name: plan.name,
    price_monthly: plan.price_monthly,
    price_note: plan.price_note,
    tagline: plan.tagline,
    apps: limitText('apps', plan.limits.apps),
    channels: limitText('channels', plan.limits.channels),
    features: featureLines(plan),
    cta_label: plan.cta_label,
    cta_href: plan.cta_href,
    highlighted: plan.highlighted,
  };
}

/** The pricing page's comparison: one row per limit, then one per feature, a cell per plan in catalogue order. */
export function comparisonRows(): ComparisonRow[] {
  return [
    ...LIMIT_KEYS.map((key) => ({ label: LIMIT_WORDS[key].label, values: PLANS.map((p) => limitText(key, p.limits[key])) })),
    ...FEATURE_KEYS.map((key) => ({ label: FEATURE_WORDS[key].label, values: PLANS.map((p) => (p.features[key] ? 'Included' : 'Not included')) })),
  ];
}

export type ComparisonRow = { label: string; values: string[] };
export type PricingCard = {
  id: string;
  name: string;
  /** Monthly price in US dollars. */
  price_monthly: number | null;
  price_note: string;
  tagline: string;
  apps: string;
  channels: string;
  features: string[];
  cta_label: string;
  cta_href: string;
  highlighted: boolean;
};
