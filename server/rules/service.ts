/**
 * Managing an organisation's rules: every member reads them (with how often each fired this week); admins and owners
 * create, change, move and delete them (the endpoints ask requireRole). Everything an action or a condition names — a
 * tag, a member, a destination, a reply template, an app — must be the organisation's now: anything else is a 400
 * naming the field, whoever's it is (another organisation's id reads exactly like an unknown one). Each change is in
 * the audit log.
 */
import { randomId } from '../crypto';
import { HttpError, notFound } from '../http/errors';
import { log } from '../log';
import { recordAudit } from '../org/data';
import type { Membership } from '../org/membership';
import { assertFeature } from '../plans/features';
import { countRules, deleteRule, insertRule, moveRule, ownedReferences, ruleFiringsThisWeek, ruleOf, rulesOf, updateRule, type RuleFields, type StoredRule } from './data';
import { MAX_RULES, type RuleAction, type RuleConditions } from './schema';

export type RuleInput = { name: string; enabled: boolean; apps: string[] | null; conditions: RuleConditions; actions: RuleAction[]; stop_after: boolean };
export type RuleChange = Partial<RuleInput> & { position?: number };

export type RuleAnswer = StoredRule & { fired_this_week: number };

const NOT_FOUND = 'Your organisation has no rule with this id. It may have been deleted.';

/** The ids a rule names that must be the organisation's, by kind, each with the field that names it. */
function referencesOf(r: { apps?: string[] | null; conditions?: RuleConditions; actions?: RuleAction[] }) {
  const refs: Array<{ kind: 'tags' | 'users' | 'destinations' | 'templates' | 'apps' | 'slack'; id: string; field: string }> = [];
  for (const a of r.apps ?? []) refs.push({ kind: 'apps', id: a, field: 'apps' });
  for (const t of r.conditions?.tags_any ?? []) refs.push({ kind: 'tags', id: t, field: 'conditions.tags_any' });
  for (const [i, a] of (r.actions ?? []).entries()) {
    if (a.type === 'tag') refs.push({ kind: 'tags', id: a.tag_id, field: `actions[${i}].tag_id` });
    if (a.type === 'assign') refs.push({ kind: 'users', id: a.user_id, field: `actions[${i}].user_id` });
    if (a.type === 'notify') refs.push({ kind: 'destinations', id: a.destination_id, field: `actions[${i}].destination_id` });
    if (a.type === 'reply') {
      refs.push({ kind: 'templates', id: a.template_id, field: `actions[${i}].template_id` });
      if (a.approval_destination_id) refs.push({ kind: 'slack', id: a.approval_destination_id, field: `actions[${i}].approval_destination_id` });
    }
  }
  return refs;
}

const WORDS = {
  tags: ['unknown_tag', 'is not a tag of your organisation. GET /api/v1/org/tags lists them.'],
  users: ['unknown_member', 'is not a member of your organisation. GET /api/v1/org/members lists them.'],
  destinations: ['unknown_destination', 'is not a destination of your organisation. GET /api/v1/org/destinations lists them.'],
  templates: ['unknown_template', 'is not a reply template of your organisation. GET /api/v1/org/reply-templates lists them.'],
  apps: ['unknown_app', 'is not an app of your organisation.'],
  slack: ['unknown_destination', 'is not a Slack channel of your organisation added with "Add to Slack".'],
} as const;

/** A 400 for the first id the rule names that is not the organisation's. */
async function assertReferences(orgId: string, r: { apps?: string[] | null; conditions?: RuleConditions; actions?: RuleAction[] }): Promise<void> {
  const refs = referencesOf(r);
  if (refs.length === 0) return;
  const ids = (kind: string) => [...new Set(refs.filter((x) => x.kind === kind).map((x) => x.id))];
  const owned = await ownedReferences(orgId, { tags: ids('tags'), users: ids('users'), destinations: [...ids('destinations'), ...ids('slack')], templates: ids('templates'), apps: ids('apps') });
  for (const ref of refs) {
    const has = ref.kind === 'slack' ? owned.destinations.get(ref.id) === 'slack' : owned[ref.kind].has(ref.id);
    if (!has) {
      const [code, words] = WORDS[ref.kind];
      throw new HttpError(400, code, `${ref.field}: ${ref.id.slice(0, 60)} ${words}`);
    }
  }
  if (r.actions?.some((a) => a.type === 'reply')) await assertFeature(orgId, 'replies');
}

async function withFirings(orgId: string, rules: StoredRule[]): Promise<RuleAnswer[]> {
  const counts = await ruleFiringsThisWeek(orgId);
  return rules.map((r) => ({ ...r, fired_this_week: counts.get(r.id) ?? 0 }));
}

export async function listRules(m: Membership): Promise<RuleAnswer[]> {
  return withFirings(m.orgId, await rulesOf(m.orgId));
}

const auditActor = (m: Membership) => ({ userId: m.userId, email: m.email });

export async function createRule(m: Membership, input: RuleInput): Promise<RuleAnswer> {
  if ((await countRules(m.orgId)) >= MAX_RULES) {
    throw new HttpError(409, 'too_many_rules', `This organisation already has ${MAX_RULES} rules. Delete one you no longer use, or add conditions to an existing one.`);
  }
  await assertReferences(m.orgId, input);
  const fields: RuleFields = { name: input.name, enabled: input.enabled, apps: input.apps ?? [], conditions: input.conditions, actions: input.actions, stop_after: input.stop_after };
  const rule = await insertRule({ ...fields, id: randomId('rul'), orgId: m.orgId, createdBy: m.userId });
  await recordAudit({ orgId: m.orgId, actor: auditActor(m), action: 'rule.created', target: rule.name, details: { id: rule.id, enabled: rule.enabled } });
  log.info('rule created', { ruleId: rule.id });
  return { ...rule, fired_this_week: 0 };
}

export async function changeRule(m: Membership, id: string, change: RuleChange): Promise<RuleAnswer> {
  const before = await ruleOf(m.orgId, id);
  if (!before) throw notFound(NOT_FOUND);
  await assertReferences(m.orgId, { apps: change.apps, conditions: change.conditions, actions: change.actions });
  const { position, apps, ...rest } = change;
  const fields: Partial<RuleFields> = { ...rest, ...(apps !== undefined ? { apps: apps ?? [] } : {}) };
  let rule = Object.keys(fields).length ? await updateRule(m.orgId, id, fields) : before;
  if (rule && position !== undefined && position !== before.position) {
    if (!(await moveRule(m.orgId, id, position))) rule = undefined;
    else rule = await ruleOf(m.orgId, id);
  }
  if (!rule) throw notFound(NOT_FOUND);
  const changed = Object.keys(change).filter((k) => change[k as keyof RuleChange] !== undefined);
  await recordAudit({ orgId: m.orgId, actor: auditActor(m), action: 'rule.changed', target: rule.name, details: { id, changed } });
  const counts = await ruleFiringsThisWeek(m.orgId);
  return { ...rule, fired_this_week: counts.get(id) ?? 0 };
}

export async function removeRule(m: Membership, id: string): Promise<void> {
  const gone = await deleteRule(m.orgId, id);
  if (!gone) throw notFound(NOT_FOUND);
  await recordAudit({ orgId: m.orgId, actor: auditActor(m), action: 'rule.deleted', target: gone.name, details: { id } });
  log.info('rule deleted', { ruleId: id });
}

export async function ruleOrNotFound(m: Membership, id: string): Promise<StoredRule> {
  const rule = await ruleOf(m.orgId, id);
  if (!rule) throw notFound(NOT_FOUND);
  return rule;
}

export { ruleFiringsThisWeek };
