/** A rule's conditions and actions in a line of words each, for the list of rules. Pure. */
import type { OrgApp } from '@/lib/api/orgApps';
import type { OrgDestination } from '@/lib/api/destinations';
import type { OrgMember } from '@/lib/api/org';
import type { ReplyTemplate } from '@/lib/api/replies';
import type { Rule, RuleAction } from '@/lib/api/rules';
import type { Tag } from '@/lib/api/workflow';
import { WORKFLOW_STATUS_LABELS } from '@/shared/workflow';

export type Names = { apps: OrgApp[]; tags: Tag[]; members: OrgMember[]; destinations: OrgDestination[]; templates: ReplyTemplate[] };

const quoted = (xs: string[]) => xs.map((x) => `“${x}”`).join(' or ');

export function conditionWords(rule: Pick<Rule, 'conditions' | 'apps'>, n: Pick<Names, 'apps' | 'tags'>): string {
  const c = rule.conditions;
  const parts: string[] = [];
  if (c.ratings?.length) parts.push(c.ratings.map((r) => `${r}★`).join(', '));
  if (c.keywords_any?.length) parts.push(`mentions ${quoted(c.keywords_any)}`);
  if (c.keywords_none?.length) parts.push(`never ${quoted(c.keywords_none)}`);
  if (c.sentiments?.length) parts.push(c.sentiments.join(' or '));
  if (c.languages?.length) parts.push(`in ${c.languages.join(', ')}`);
  if (c.countries?.length) parts.push(`from ${c.countries.map((x) => x.toUpperCase()).join(', ')}`);
  if (c.versions?.length) parts.push(`version ${c.versions.join(', ')}`);
  if (c.tags_any?.length) parts.push(`tagged ${c.tags_any.map((id) => n.tags.find((t) => t.id === id)?.name ?? 'a deleted tag').join(' or ')}`);
  if (c.min_length !== undefined) parts.push(`at least ${c.min_length} characters`);
  if (c.max_length !== undefined) parts.push(`at most ${c.max_length} characters`);
  const apps = rule.apps?.length ? rule.apps.map((k) => n.apps.find((a) => a.key === k)?.title ?? k).join(', ') : 'every app';
  return `${parts.length ? parts.join(' · ') : 'Every review'} (${apps})`;
}

export function actionWords(a: RuleAction, n: Names): string {
  switch (a.type) {
    case 'tag':
      return `tag ${n.tags.find((t) => t.id === a.tag_id)?.name ?? '(a deleted tag)'}`;
    case 'assign': {
      const m = n.members.find((x) => x.id === a.user_id);
      return `assign to ${m ? m.name || m.email : 'a former member'}`;
    }
    case 'set_status':
      return `set ${WORKFLOW_STATUS_LABELS[a.status]}`;
    case 'notify': {
      const d = n.destinations.find((x) => x.id === a.destination_id);
      return `notify ${d ? `${d.platform_name}${d.label ? ` ${d.label}` : ''}` : 'a deleted destination'}`;
    }
    case 'reply': {
      const t = n.templates.find((x) => x.id === a.template_id);
      return `${a.mode === 'approval' ? 'draft' : 'send'} the reply “${t?.name ?? 'a deleted template'}”${a.mode === 'approval' ? ' for approval' : ''}, at most ${a.daily_cap} a day`;
    }
    case 'zendesk_ticket':
      return 'create a Zendesk ticket';
  }
}
