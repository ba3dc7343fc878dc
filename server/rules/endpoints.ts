/**
 * The organisation's rules over HTTP:
 *   GET    v1/org/rules             the rules in order, each with fired_this_week (every member)
 *   POST   v1/org/rules             { name, enabled, apps?, conditions, actions, stop_after? } (admins and owners)
 *   PATCH  v1/org/rules/{id}        any of those, and position (0 first) to move it (admins and owners)
 *   DELETE v1/org/rules/{id}        (admins and owners)
 *   POST   v1/org/rules/{id}/test   dry run over the newest 200 reviews of its apps: nothing is written (every member)
 * A rule of another organisation is not found (404), whatever the caller's role.
 */
import { z } from 'zod';
import { endpoint } from '../http/api';
import { displayName } from '../http/schemas';
import { membershipOf, requireRole } from '../org/membership';
import { dryRunRule, DRY_RUN_REVIEWS } from './dryRun';
import { actionSchema, actionsSchema, appsSchema, conditionsSchema, RULE_ID } from './schema';
import { changeRule, createRule, listRules, removeRule, type RuleAnswer } from './service';

const idParam = z.object({ id: z.string() }).transform(({ id }, ctx) => {
  if (!RULE_ID.test(id)) ctx.addIssue({ code: 'custom', message: 'not a rule id (rul_ followed by 24 letters and digits).', path: ['id'] });
  return { id };
});

const ruleName = displayName('Give the rule a name, e.g. "1★ refunds to billing".');
const enabled = z.boolean('enabled must be true or false.');
const stopAfter = z.boolean('stop_after must be true or false.').meta({ description: 'When this rule matches a review, the rules after it do not run on that review.' });


const ruleShape = z.object({
  id: z.string(),
  name: z.string(),
  enabled: z.boolean(),
  position: z.number().int().meta({ description: 'Its place in the order rules run in, 0 first.' }),
  apps: z.array(z.string()).nullable().meta({ description: 'The apps it looks at; null: every app of the organisation.' }),
  // The request's own schemas: the stored JSON is parsed with them on every read (schema.ts readRule).
  conditions: conditionsSchema,
  actions: z.array(actionSchema),
  stop_after: z.boolean(),
  fired_this_week: z.number().int().meta({ description: 'Reviews it matched (and acted on) in the last 7 days.' }),
  created_at: z.string(),
  updated_at: z.string(),
});

const ruleJson = (r: RuleAnswer): z.infer<typeof ruleShape> => ({
  id: r.id,
  name: r.name,
  enabled: r.enabled,
  position: r.position,
  apps: r.apps.length ? r.apps : null,
  conditions: r.conditions,
  actions: r.actions,
  stop_after: r.stop_after,
  fired_this_week: r.fired_this_week,
  created_at: new Date(r.created_at).toISOString(),
  updated_at: new Date(r.updated_at).toISOString(),
});

const KEYS_WORDS = 'Only name, enabled, apps, conditions, actions, stop_after and position can be sent.';
const bodyError = (iss: { code: string }) => (iss.code === 'unrecognized_keys' ? KEYS_WORDS : 'The body must be a JSON object.');

export const listRulesEndpoint = endpoint({
  summary: "The organisation's rules in the order they run, each with how often it fired this week (every member reads)",
  tags: ['rules'],
  auth: 'user',
  response: z.array(ruleShape),
  handler: async ({ auth }) => (await listRules(await membershipOf(auth))).map(ruleJson),
});

export const createRuleEndpoint = endpoint({
  statuses: [201, 402, 409],
  summary: 'Add a rule, last in the order (admins and owners): its conditions all hold → its actions run, on every new or edited review',
  tags: ['rules'],
  auth: 'user',
  body: z
    .object(
      {
        name: ruleName,
        enabled: enabled.optional().default(true),
        apps: appsSchema.optional().default(null),
        conditions: conditionsSchema.optional().default({}),
        actions: actionsSchema,
        stop_after: stopAfter.optional().default(false),
      },
      { error: bodyError },
    )
    .strict(),
  response: ruleShape,
  handler: async (ctx) => {
    const m = await requireRole(ctx.auth, 'admin', 'manage rules');
    const rule = await createRule(m, ctx.body);
    ctx.status = 201;
    return ruleJson(rule);
  },
});

export const updateRuleEndpoint = endpoint({
  statuses: [402, 404],
  summary: "Change a rule — its name, on/off, apps, conditions, actions, stop_after — or move it (position, 0 first) (admins and owners)",
  tags: ['rules'],
  auth: 'user',
  params: idParam,
  body: z
    .object(
      {
        name: ruleName.optional(),
        enabled: enabled.optional(),
        apps: appsSchema.optional(),
        conditions: conditionsSchema.optional(),
        actions: actionsSchema.optional(),
        stop_after: stopAfter.optional(),
        position: z.number('position must be a whole number (0 first).').int('position must be a whole number (0 first).').min(0, 'position cannot be negative.').max(10_000, 'position: at most 10,000.').optional(),
      },
      { error: bodyError },
    )
    .strict()
    .refine((b) => Object.values(b).some((v) => v !== undefined), `Nothing to change: send ${KEYS_WORDS.slice('Only '.length, -' can be sent.'.length)}.`),
  response: ruleShape,
  handler: async ({ auth, params, body }) => ruleJson(await changeRule(await requireRole(auth, 'admin', 'manage rules'), params.id, body)),
});

export const deleteRuleEndpoint = endpoint({
  statuses: [404],
  summary: 'Delete a rule (admins and owners): it stops at once; what it already did stays',
  tags: ['rules'],
  auth: 'user',
  params: idParam,
  response: z.object({ ok: z.literal(true) }),
  handler: async ({ auth, params }) => {
    await removeRule(await requireRole(auth, 'admin', 'manage rules'), params.id);
    return { ok: true as const };
  },
});

const matchShape = z.object({
  review_id: z.string(),
  app_key: z.string(),
  rating: z.number().int(),
  author: z.string(),
  excerpt: z.string(),
  written_at: z.string().nullable(),
  updated_at: z.string(),
  would: z.array(z.string()).meta({ description: 'What would happen, one sentence per action (or why nothing would).' }),
  stopped_by: z.object({ id: z.string(), name: z.string() }).nullable().meta({ description: 'An earlier rule with stop_after that matches the review first: this one would not run on it.' }),
});

export const testRuleEndpoint = endpoint({
  statuses: [404],
  summary: `Dry run of a rule over the newest ${DRY_RUN_REVIEWS} reviews of its apps: which it would match and what would happen (nothing is changed; every member may)`,
  tags: ['rules'],
  auth: 'user',
  params: idParam,
  response: z.object({ rule_id: z.string(), checked: z.number().int(), matched: z.number().int(), reviews: z.array(matchShape) }),
  handler: async ({ auth, params }) => dryRunRule(await membershipOf(auth), params.id),
});
