/**
 * A rule as the API takes it and the database stores it: its conditions (all must hold) and its actions (in order).
 * One zod schema for both — the endpoints validate requests with it, and rows read back are parsed with it again
 * (readRule), so a hand-edited row cannot crash the runner. Whether the ids the actions name belong to the
 * organisation is checked by the service (references.ts), not here.
 */
import { z } from 'zod';
import { WORKFLOW_STATUSES } from '@/shared/workflow';
import { SENTIMENTS } from '../ai/enrich/sentiment';

export const RULE_ID = /^rul_[0-9A-Za-z]{24}$/;
export const APP_KEY = /^(apple_app_store__\d{1,20}|google_play_store__[A-Za-z][A-Za-z0-9_]*(\.[A-Za-z0-9_]+)+)$/;
/** Rules an organisation may have: enough for any team's triage, few enough to read. */
export const MAX_RULES = 100;
export const MAX_ACTIONS = 10;
/** A reply action's daily cap, per app and UTC day. */
export const MAX_DAILY_CAP = 1000;

const keyword = z
  .string('keywords must be words or phrases.')
  .trim()
  .min(1, 'keywords cannot be empty.')
  .max(100, 'keywords can be at most 100 characters each.')
  .refine((v) => !/[\u0000-\u001f\u007f]/.test(v), 'keywords cannot contain control characters.')
  .refine((v) => /[\p{L}\p{N}]/u.test(v), 'a keyword needs at least one letter or digit.');
const keywords = (name: string) => z.array(keyword, `${name} must be a list of words or phrases.`).min(1, `${name}: give at least one keyword, or leave it out.`).max(50, `${name}: at most 50.`);
const listOf = <T extends z.ZodType>(name: string, item: T, max: number) =>
  z.array(item, `${name} must be a list.`).min(1, `${name}: give at least one value, or leave it out.`).max(max, `${name}: at most ${max} values.`);
const length = (name: string) => z.number(`${name} must be a whole number of characters.`).int(`${name} must be a whole number of characters.`).min(0, `${name} cannot be negative.`).max(100_000, `${name}: at most 100,000.`);
const idOf = (field: string, prefix: string, what: string) =>
  z.string(`${field} must be ${what} id.`).regex(new RegExp(`^${prefix}_[0-9A-Za-z]{1,64}$`), `${field} must be ${what} id (${prefix}_…).`);

export const conditionsSchema = z
  .object(
    {
      ratings: listOf('ratings', z.number('ratings must be whole numbers from 1 to 5.').int('ratings must be whole numbers from 1 to 5.').min(1, 'ratings must be 1 to 5.').max(5, 'ratings must be 1 to 5.'), 5).optional(),
      keywords_any: keywords('keywords_any').optional(),
      keywords_none: keywords('keywords_none').optional(),
      languages: listOf(
        'languages',
        z.string('languages must be codes like "en" or "pt-br".').trim().toLowerCase().regex(/^[a-z]{2,3}(-[a-z0-9]{2,8})?$/, 'languages must be codes like "en" or "pt-br".'),
        100,
      ).optional(),
      countries: listOf('countries', z.string('countries must be two-letter codes like "us".').trim().toLowerCase().regex(/^[a-z]{2}$/, 'countries must be two-letter codes like "us".'), 300).optional(),
      versions: listOf(
        'versions',
        z.string('versions must be app versions like "2.4" or "2.4.1".').trim().min(1, 'versions cannot be empty.').max(40, 'versions can be at most 40 characters.').refine((v) => !/[\u0000-\u001f\u007f]/.test(v), 'versions cannot contain control characters.'),
        100,
      ).optional(),
      sentiments: listOf('sentiments', z.enum(SENTIMENTS, `sentiments must be among ${SENTIMENTS.join(', ')}.`), SENTIMENTS.length).optional(),
      tags_any: listOf('tags_any', idOf('tags_any', 'tag', 'a tag'), 50).optional(),
      min_length: length('min_length').optional(),
      max_length: length('max_length').optional(),
    },
    {
      error: (iss) =>
        iss.code === 'unrecognized_keys'
          ? 'conditions can only have ratings, keywords_any, keywords_none, languages, countries, versions, sentiments, tags_any, min_length and max_length.'
          : 'conditions must be an object.',
    },
  )
  .strict()
  .refine((c) => c.min_length === undefined || c.max_length === undefined || c.min_length <= c.max_length, 'min_length cannot be more than max_length.');

export type RuleConditions = z.infer<typeof conditionsSchema>;

export const REPLY_MODES = ['approval', 'auto'] as const;

export const actionSchema = z.discriminatedUnion(
  'type',
  [
    z.object({ type: z.literal('tag'), tag_id: idOf('tag_id', 'tag', 'a tag') }).strict(),
    z.object({ type: z.literal('assign'), user_id: idOf('user_id', 'usr', 'a member\'s user') }).strict(),
    z.object({ type: z.literal('set_status'), status: z.enum(WORKFLOW_STATUSES, `status must be one of ${WORKFLOW_STATUSES.join(', ')}.`) }).strict(),
    z.object({ type: z.literal('notify'), destination_id: z.string('destination_id must be a destination id.').regex(/^dst_[0-9A-Za-z]{24}$/, 'destination_id must be a destination id (dst_ followed by 24 letters and digits).') }).strict(),
    z
      .object({
        type: z.literal('reply'),
        template_id: z.string('template_id must be a reply template id.').regex(/^tpl_[0-9A-Za-z]{24}$/, 'template_id must be a reply template id (tpl_ followed by 24 letters and digits).'),
        mode: z.enum(REPLY_MODES, 'mode must be "approval" (a draft waits for a person) or "auto" (sent).'),
        daily_cap: z.number('daily_cap must be a whole number.').int('daily_cap must be a whole number.').min(1, 'daily_cap must be at least 1.').max(MAX_DAILY_CAP, `daily_cap: at most ${MAX_DAILY_CAP} a day.`),
        approval_destination_id: z
          .string('approval_destination_id must be a Slack destination id, or null.')
          .regex(/^dst_[0-9A-Za-z]{24}$/, 'approval_destination_id must be a destination id (dst_ followed by 24 letters and digits).')
          .nullable()
          .optional()
          .meta({ description: 'mode approval: a Slack channel (added with "Add to Slack") that also gets each draft with Approve / Edit / Reject buttons.' }),
      })
      .strict(),
    z.object({ type: z.literal('zendesk_ticket') }).strict(),
  ],
  { error: () => 'each action needs a type: tag, assign, set_status, notify, reply or zendesk_ticket, with its fields.' },
);

export type RuleAction = z.infer<typeof actionSchema>;
export type RuleActionType = RuleAction['type'];

export const actionsSchema = z
  .array(actionSchema, 'actions must be a list.')
  .min(1, 'actions: a rule does at least one thing.')
  .max(MAX_ACTIONS, `actions: at most ${MAX_ACTIONS}.`)
  .refine((a) => a.filter((x) => x.type === 'set_status').length <= 1, 'actions: one set_status at most.')
  .refine((a) => a.filter((x) => x.type === 'assign').length <= 1, 'actions: one assign at most.')
  .refine((a) => a.filter((x) => x.type === 'reply').length <= 1, 'actions: one reply at most.')
  .refine((a) => a.filter((x) => x.type === 'zendesk_ticket').length <= 1, 'actions: one zendesk_ticket at most.');

export const appsSchema = z
  .array(z.string('apps must be app keys like apple_app_store__123456789.').regex(APP_KEY, 'apps must be app keys like apple_app_store__123456789.'), 'apps must be a list of app keys, or null for every app.')
  .max(100, 'apps: at most 100.')
  .nullable();

/** A stored rule, as the runner and the answers use it. */
export type Rule = {
  id: string;
  org_id: string;
  name: string;
  enabled: boolean;
  position: number;
  /** Empty: every app of the organisation. */
  apps: string[];
  conditions: RuleConditions;
  actions: RuleAction[];
  stop_after: boolean;
  created_at: Date;
  updated_at: Date;
};

const parseJson = (raw: unknown) => (typeof raw === 'string' ? JSON.parse(raw) : raw);

/**
 * A row's conditions and actions, parsed again. A row that no longer parses (hand-edited, or written by a later
 * version) keeps its place but acts on nothing: its conditions read as "never" (null).
 */
export function readRule(row: Omit<Rule, 'conditions' | 'actions'> & { conditions: unknown; actions: unknown }): Rule & { unreadable: boolean } {
  const c = conditionsSchema.safeParse(parseJson(row.conditions) ?? {});
  const a = actionsSchema.safeParse(parseJson(row.actions) ?? []);
  return { ...row, apps: row.apps ?? [], conditions: c.success ? c.data : {}, actions: a.success ? a.data : [], unreadable: !c.success || !a.success };
}
