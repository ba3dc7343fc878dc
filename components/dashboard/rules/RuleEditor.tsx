/**
 * The editor of one rule: its name, on/off, the apps it looks at, its conditions (all must hold; lists written with
 * commas), its actions in order (tag, assign, set a status, notify a destination, reply from a template — for approval
 * or sent, with a daily cap per app —, create a Zendesk ticket) and whether the rules after it still run. It sends the
 * rule as the API takes it (POST v1/org/rules or PATCH v1/org/rules/{id}); the server checks it and says what is wrong.
 */
import { useId, useState, type ReactNode } from 'react';
import type { OrgApp } from '@/lib/api/orgApps';
import type { OrgMember } from '@/lib/api/org';
import type { OrgDestination } from '@/lib/api/destinations';
import type { ReplyTemplate } from '@/lib/api/replies';
import type { Rule, RuleAction, RuleConditions, RuleInput } from '@/lib/api/rules';
import type { Tag } from '@/lib/api/workflow';
import { WORKFLOW_STATUS_LABELS, WORKFLOW_STATUSES, type WorkflowStatus } from '@/shared/workflow';
import styles from '../Dashboard.module.css';
import own from './Rules.module.css';

export const ACTION_LABELS: Record<RuleAction['type'], string> = {
  tag: 'Tag it',
  assign: 'Assign it',
  set_status: 'Set its status',
  notify: 'Notify a destination',
  reply: 'Reply from a template',
  zendesk_ticket: 'Create a Zendesk ticket',
};
const ACTION_TYPES = Object.keys(ACTION_LABELS) as RuleAction['type'][];
const SENTIMENTS = ['positive', 'neutral', 'negative', 'mixed'] as const;
const DEFAULT_DAILY_CAP = 20;

export type RuleChoices = { apps: OrgApp[]; tags: Tag[]; members: OrgMember[]; destinations: OrgDestination[]; templates: ReplyTemplate[] };

type TextLists = 'keywords_any' | 'keywords_none' | 'languages' | 'countries' | 'versions';
type Draft = {
  name: string;
  enabled: boolean;
  apps: string[];
  ratings: number[];
  sentiments: NonNullable<RuleConditions['sentiments']>;
  tags_any: string[];
  lists: Record<TextLists, string>;
  min_length: string;
  max_length: string;
  actions: RuleAction[];
  stop_after: boolean;
};

const LIST_FIELDS: { key: TextLists; label: string; hint: string }[] = [
  { key: 'keywords_any', label: 'Mentions any of', hint: 'words or phrases, with commas: refund, money back' },
  { key: 'keywords_none', label: 'Mentions none of', hint: 'words or phrases, with commas' },
  { key: 'languages', label: 'Languages', hint: 'codes, with commas: en, de' },
  { key: 'countries', label: 'Countries', hint: 'two-letter codes, with commas: us, gb' },
  { key: 'versions', label: 'App versions', hint: 'with commas: 2.4, 2.4.1' },
];

const splitList = (s: string) =>
  s
    .split(',')
    .map((x) => x.trim())
    .filter(Boolean);

function draftOf(rule: Rule | null): Draft {
  const c = rule?.conditions ?? {};
  return {
    name: rule?.name ?? '',
    enabled: rule?.enabled ?? true,
    apps: rule?.apps ?? [],
    ratings: c.ratings ?? [],
    sentiments: c.sentiments ?? [],
    tags_any: c.tags_any ?? [],
    lists: {
      keywords_any: (c.keywords_any ?? []).join(', '),
      keywords_none: (c.keywords_none ?? []).join(', '),
      languages: (c.languages ?? []).join(', '),
      countries: (c.countries ?? []).join(', '),
      versions: (c.versions ?? []).join(', '),
    },
    min_length: c.min_length !== undefined ? String(c.min_length) : '',
    max_length: c.max_length !== undefined ? String(c.max_length) : '',
    actions: rule?.actions ?? [],
    stop_after: rule?.stop_after ?? false,
  };
}

/** The draft as the API takes it: empty conditions left out. */
export function ruleInputOf(d: Draft): RuleInput {
  const conditions: RuleConditions = {};
  if (d.ratings.length) conditions.ratings = [...d.ratings].sort();
  if (d.sentiments.length) conditions.sentiments = d.sentiments;
  if (d.tags_any.length) conditions.tags_any = d.tags_any;
  for (const f of LIST_FIELDS) {
    const values = splitList(d.lists[f.key]);
    if (values.length) conditions[f.key] = values;
  }
  if (d.min_length.trim()) conditions.min_length = Number(d.min_length);
  if (d.max_length.trim()) conditions.max_length = Number(d.max_length);
  return { name: d.name.trim(), enabled: d.enabled, apps: d.apps.length ? d.apps : null, conditions, actions: d.actions, stop_after: d.stop_after };
}

function blankAction(type: RuleAction['type'], c: RuleChoices): RuleAction {
  switch (type) {
    case 'tag':
      return { type, tag_id: c.tags[0]?.id ?? '' };
    case 'assign':
      return { type, user_id: c.members[0]?.id ?? '' };
    case 'set_status':
      return { type, status: 'needs_reply' };
    case 'notify':
      return { type, destination_id: c.destinations[0]?.id ?? '' };
    case 'reply':
      return { type, template_id: c.templates[0]?.id ?? '', mode: 'approval', daily_cap: DEFAULT_DAILY_CAP };
    case 'zendesk_ticket':
      return { type };
  }
}

function Checkboxes<V extends string | number>({ legend, options, value, onChange }: { legend: string; options: { label: ReactNode; value: V }[]; value: V[]; onChange: (v: V[]) => void }) {
  return (
    <fieldset className={own.checks}>
      <legend>{legend}</legend>
      {options.length === 0 ? <span className={styles.muted}>None yet</span> : null}
      {options.map((o) => (
        <label key={String(o.value)}>
          <input type="checkbox" checked={value.includes(o.value)} onChange={(e) => onChange(e.target.checked ? [...value, o.value] : value.filter((v) => v !== o.value))} />
          {o.label}
        </label>
      ))}
    </fieldset>
  );
}

function Select({ label, value, onChange, children }: { label: string; value: string; onChange: (v: string) => void; children: ReactNode }) {
  const id = useId();
  return (
    <span className={own.inline}>
      <label htmlFor={id}>{label}</label>
      <select id={id} className={styles.input} value={value} onChange={(e) => onChange(e.target.value)}>
        {children}
      </select>
    </span>
  );
}

function ActionFields({ action, choices, onChange }: { action: RuleAction; choices: RuleChoices; onChange: (a: RuleAction) => void }) {
  const id = useId();
  const appTitle = (key: string) => choices.apps.find((a) => a.key === key)?.title ?? key;
  switch (action.type) {
    case 'tag':
      return (
        <Select label="Tag" value={action.tag_id} onChange={(tag_id) => onChange({ ...action, tag_id })}>
          {choices.tags.length === 0 ? <option value="">Add a tag first (Tags, above)</option> : null}
          {choices.tags.map((t) => (
            <option key={t.id} value={t.id}>
              {t.name}
            </option>
          ))}
        </Select>
      );
    case 'assign':
      return (
        <Select label="Member" value={action.user_id} onChange={(user_id) => onChange({ ...action, user_id })}>
          {choices.members.map((m) => (
            <option key={m.id} value={m.id}>
              {m.name || m.email}
            </option>
          ))}
        </Select>
      );
    case 'set_status':
      return (
        <Select label="Status" value={action.status} onChange={(status) => onChange({ ...action, status: status as WorkflowStatus })}>
          {WORKFLOW_STATUSES.map((s) => (
            <option key={s} value={s}>
              {WORKFLOW_STATUS_LABELS[s]}
            </option>
          ))}
        </Select>
      );
    case 'notify':
      return (
        <Select label="Destination" value={action.destination_id} onChange={(destination_id) => onChange({ ...action, destination_id })}>
          {choices.destinations.length === 0 ? <option value="">No destinations yet</option> : null}
          {choices.destinations.map((d) => (
            <option key={d.id} value={d.id}>
              {d.platform_name}
              {d.label ? ` · ${d.label}` : ` · ${d.target}`}
            </option>
          ))}
        </Select>
      );
    case 'reply':
      return (
        <>
          <Select label="Template" value={action.template_id} onChange={(template_id) => onChange({ ...action, template_id })}>
            {choices.templates.length === 0 ? <option value="">No templates yet (save one from a reply in the inbox)</option> : null}
            {choices.templates.map((t) => (
              <option key={t.id} value={t.id}>
                {t.name} ({appTitle(t.app_key)})
              </option>
            ))}
          </Select>
          <Select label="Mode" value={action.mode} onChange={(mode) => onChange({ ...action, mode: mode as 'approval' | 'auto' })}>
            <option value="approval">Draft it for approval</option>
            <option value="auto">Send it</option>
          </Select>
          <span className={own.inline}>
            <label htmlFor={`${id}-cap`}>At most a day, per app</label>
            <input
              id={`${id}-cap`}
              type="number"
              min={1}
              max={1000}
              className={`${styles.input} ${own.number}`}
              value={action.daily_cap}
              onChange={(e) => onChange({ ...action, daily_cap: Number(e.target.value) })}
            />
          </span>
        </>
      );
    case 'zendesk_ticket':
      return <span className={styles.muted}>One ticket per review, in the Zendesk account connected on the Integrations page.</span>;
  }
}

export default function RuleEditor({ rule, choices, pending, onSave, onCancel }: { rule: Rule | null; choices: RuleChoices; pending: boolean; onSave: (input: RuleInput) => void; onCancel: () => void }) {
  const id = useId();
  const [d, setD] = useState<Draft>(() => draftOf(rule));
  const set = <K extends keyof Draft>(key: K, value: Draft[K]) => setD((before) => ({ ...before, [key]: value }));
  const setAction = (i: number, a: RuleAction) => set('actions', d.actions.map((x, j) => (j === i ? a : x)));
  const moveAction = (i: number, by: -1 | 1) => {
    const next = [...d.actions];
    [next[i], next[i + by]] = [next[i + by], next[i]];
    set('actions', next);
  };
  const title = rule ? `Edit the rule “${rule.name}”` : 'New rule';
  return (
    <form
      className={own.editor}
      aria-labelledby={`${id}-title`}
      onSubmit={(e) => {
        e.preventDefault();
        onSave(ruleInputOf(d));
      }}
    >
      <h3 id={`${id}-title`} className={own.editorTitle}>
        {title}
      </h3>
      <div className={own.inlineRow}>
        <span className={own.inline}>
          <label htmlFor={`${id}-name`}>Name</label>
          <input id={`${id}-name`} className={styles.input} value={d.name} maxLength={100} required placeholder="1★ refunds to billing" onChange={(e) => set('name', e.target.value)} />
        </span>
        <label className={own.inline}>
          <input type="checkbox" checked={d.enabled} onChange={(e) => set('enabled', e.target.checked)} />
          Enabled
        </label>
      </div>
      <Checkboxes legend="Apps (none checked: every app)" options={choices.apps.map((a) => ({ label: a.title, value: a.key }))} value={d.apps} onChange={(v) => set('apps', v)} />
      <fieldset className={own.group}>
        <legend>When a new or edited review… (all of these)</legend>
        <Checkboxes legend="Rating" options={[1, 2, 3, 4, 5].map((n) => ({ label: `${n}★`, value: n }))} value={d.ratings} onChange={(v) => set('ratings', v)} />
        <Checkboxes legend="Sentiment" options={SENTIMENTS.map((s) => ({ label: s[0].toUpperCase() + s.slice(1), value: s }))} value={d.sentiments} onChange={(v) => set('sentiments', v)} />
        <Checkboxes legend="Has any of the tags" options={choices.tags.map((t) => ({ label: t.name, value: t.id }))} value={d.tags_any} onChange={(v) => set('tags_any', v)} />
        {LIST_FIELDS.map((f) => (
          <span key={f.key} className={own.inline}>
            <label htmlFor={`${id}-${f.key}`}>{f.label}</label>
            <input
              id={`${id}-${f.key}`}
              className={`${styles.input} ${own.wide}`}
              value={d.lists[f.key]}
              placeholder={f.hint}
              aria-describedby={`${id}-${f.key}-hint`}
              onChange={(e) => set('lists', { ...d.lists, [f.key]: e.target.value })}
            />
            <span id={`${id}-${f.key}-hint`} className="visually-hidden">
              {f.hint}
            </span>
          </span>
        ))}
        <div className={own.inlineRow}>
          <span className={own.inline}>
            <label htmlFor={`${id}-min`}>At least (characters)</label>
            <input id={`${id}-min`} type="number" min={0} className={`${styles.input} ${own.number}`} value={d.min_length} onChange={(e) => set('min_length', e.target.value)} />
          </span>
          <span className={own.inline}>
            <label htmlFor={`${id}-max`}>At most (characters)</label>
            <input id={`${id}-max`} type="number" min={0} className={`${styles.input} ${own.number}`} value={d.max_length} onChange={(e) => set('max_length', e.target.value)} />
          </span>
        </div>
        <p className={styles.muted}>Keywords match their word forms, in the review&rsquo;s language and in its translation when there is one.</p>
      </fieldset>
      <fieldset className={own.group}>
        <legend>…then, in order</legend>
        {d.actions.length === 0 ? <p className={styles.muted}>No actions yet: add at least one.</p> : null}
        <ol className={own.actions}>
          {d.actions.map((a, i) => (
            // Actions have no ids of their own; their place is what the list is about.
            <li key={i} className={own.action}>
              <Select label={`Action ${i + 1}`} value={a.type} onChange={(t) => setAction(i, blankAction(t as RuleAction['type'], choices))}>
                {ACTION_TYPES.map((t) => (
                  <option key={t} value={t}>
                    {ACTION_LABELS[t]}
                  </option>
                ))}
              </Select>
              <ActionFields action={a} choices={choices} onChange={(next) => setAction(i, next)} />
              <span className={own.actionButtons}>
                <button type="button" className={styles.quiet} disabled={i === 0} onClick={() => moveAction(i, -1)} aria-label={`Move action ${i + 1} up`}>
                  ↑
                </button>
                <button type="button" className={styles.quiet} disabled={i === d.actions.length - 1} onClick={() => moveAction(i, 1)} aria-label={`Move action ${i + 1} down`}>
                  ↓
                </button>
                <button type="button" className={styles.quiet} onClick={() => set('actions', d.actions.filter((_, j) => j !== i))} aria-label={`Remove action ${i + 1}`}>
                  Remove
                </button>
              </span>
            </li>
          ))}
        </ol>
        <button type="button" className={styles.quiet} onClick={() => set('actions', [...d.actions, blankAction('tag', choices)])}>
          Add an action
        </button>
      </fieldset>
      <label className={own.inline}>
        <input type="checkbox" checked={d.stop_after} onChange={(e) => set('stop_after', e.target.checked)} />
        Stop here: when this rule matches, the rules after it do not run on that review
      </label>
      <div className={own.editorButtons}>
        <button type="button" className={styles.quiet} onClick={onCancel}>
          Cancel
        </button>
        <button type="submit" className={styles.button} disabled={pending || !d.name.trim() || d.actions.length === 0} aria-busy={pending}>
          {rule ? 'Save rule' : 'Add rule'}
        </button>
      </div>
    </form>
  );
}
