/**
 * /dashboard/rules: the organisation's tags, and its rules in the order they run on every new or edited review — each
 * with how often it fired this week, on/off, moved up or down, edited (RuleEditor), dry-run over the last 200 reviews
 * (DryRun) or deleted. Members read and dry-run; admins and owners change (the server says so too).
 */
import { useId, useState } from 'react';
import toast from '@/lib/hotToast';
import type { Rule, RuleInput, RuleTest } from '@/lib/api/rules';
import { useDestinations } from '@/lib/queries/destinations';
import { useOrgApps } from '@/lib/queries/orgApps';
import { useAllTemplates, useCreateRule, useDeleteRule, useRules, useTestRule, useUpdateRule } from '@/lib/queries/rules';
import { useMembers, useOrganisation } from '@/lib/queries/team';
import { useTags } from '@/lib/queries/workflow';
import { ConfirmButton, errorToast, Skeleton } from '../common';
import DryRun from './DryRun';
import RuleEditor, { type RuleChoices } from './RuleEditor';
import TagsManager from './TagsManager';
import { actionWords, conditionWords } from './ruleWords';
import styles from '../Dashboard.module.css';
import own from './Rules.module.css';

type Editing = { rule: Rule | null } | null;

function RuleItem({ rule, index, count, choices, canEdit, onEdit }: { rule: Rule; index: number; count: number; choices: RuleChoices; canEdit: boolean; onEdit: () => void }) {
  const [result, setResult] = useState<RuleTest | null>(null);
  const update = useUpdateRule({ onError: errorToast });
  const remove = useDeleteRule({ onSuccess: () => toast.success(`Rule "${rule.name}" deleted`), onError: errorToast });
  const test = useTestRule({ onSuccess: setResult, onError: errorToast });
  const id = useId();
  return (
    <li className={own.rule} aria-labelledby={`${id}-name`}>
      <div className={own.ruleHead}>
        <span className={own.position} aria-hidden="true">
          {index + 1}
        </span>
        <h3 id={`${id}-name`} className={own.ruleName}>
          {rule.name}
        </h3>
        <span className={own.fired}>
          Fired {rule.fired_this_week.toLocaleString('en-US')} time{rule.fired_this_week === 1 ? '' : 's'} this week
        </span>
        <label className={own.inline}>
          <input
            type="checkbox"
            role="switch"
            checked={rule.enabled}
            disabled={!canEdit || update.isPending}
            onChange={(e) => update.mutate({ id: rule.id, change: { enabled: e.target.checked } }, { onSuccess: (r) => toast.success(`Rule "${r.name}" ${r.enabled ? 'on' : 'off'}`) })}
            aria-label={`${rule.name} enabled`}
          />
          {rule.enabled ? 'On' : 'Off'}
        </label>
      </div>
      <p className={own.ruleWords}>
        <strong>When</strong> {conditionWords(rule, choices)}
      </p>
      <p className={own.ruleWords}>
        <strong>Then</strong> {rule.actions.map((a) => actionWords(a, choices)).join(', then ')}
        {rule.stop_after ? '; and stop (the rules after it do not run)' : ''}
      </p>
      <div className={own.ruleButtons}>
        {canEdit ? (
          <>
            <button type="button" className={styles.quiet} disabled={index === 0 || update.isPending} onClick={() => update.mutate({ id: rule.id, change: { position: index - 1 } })} aria-label={`Move ${rule.name} up`}>
              Move up
            </button>
            <button type="button" className={styles.quiet} disabled={index === count - 1 || update.isPending} onClick={() => update.mutate({ id: rule.id, change: { position: index + 1 } })} aria-label={`Move ${rule.name} down`}>
              Move down
            </button>
            <button type="button" className={styles.quiet} onClick={onEdit} aria-label={`Edit ${rule.name}`}>
              Edit
            </button>
          </>
        ) : null}
        <button type="button" className={styles.quiet} disabled={test.isPending} aria-busy={test.isPending} onClick={() => test.mutate(rule.id)} aria-label={`Dry run of ${rule.name}`}>
          {test.isPending ? 'Testing…' : 'Dry run'}
        </button>
        {canEdit ? (
          <ConfirmButton question={`Delete the rule "${rule.name}"? What it already did stays.`} pending={remove.isPending} onConfirm={() => remove.mutate(rule.id)} label={`Delete ${rule.name}`}>
            Delete
          </ConfirmButton>
        ) : null}
      </div>
      {result ? <DryRun name={rule.name} result={result} apps={choices.apps} /> : null}
    </li>
  );
}

export default function RulesPage() {
  const id = useId();
  const org = useOrganisation();
  const rules = useRules();
  const apps = useOrgApps();
  const tags = useTags();
  const members = useMembers();
  const destinations = useDestinations();
  const templates = useAllTemplates();
  const [editing, setEditing] = useState<Editing>(null);
  const canEdit = org.data?.role === 'owner' || org.data?.role === 'admin';
  const done = (r: Rule) => (toast.success(`Rule "${r.name}" saved`), setEditing(null));
  const create = useCreateRule({ onSuccess: done, onError: errorToast });
  const update = useUpdateRule({ onSuccess: done, onError: errorToast });
  const choices: RuleChoices = {
    apps: apps.data ?? [],
    tags: tags.data ?? [],
    members: members.data ?? [],
    destinations: destinations.data ?? [],
    templates: templates.data ?? [],
  };
  const save = (input: RuleInput) => (editing?.rule ? update.mutate({ id: editing.rule.id, change: input }) : create.mutate(input));
  const list = [...(rules.data ?? [])].sort((a, b) => a.position - b.position);
  // A rule reads in names (its tag, its member): until those lists arrive it would say "a deleted tag".
  const wordsLoading = [apps, tags, members, destinations, templates].some((q) => q.isLoading);
  return (
    <>
      <TagsManager canEdit={!!org.data} />
      <section className={styles.section} aria-labelledby={`${id}-title`}>
        <h2 id={`${id}-title`} className={styles.sectionTitle}>
          Rules
        </h2>
        <p className={styles.muted}>
          Rules run in this order on every new or edited review of your apps, within a second of it arriving. A rule acts when all its conditions hold.
        </p>
        {rules.isPending || wordsLoading ? (
          <Skeleton rows={3} label="Loading the rules" />
        ) : rules.isError ? (
          <p role="alert">{rules.error.message}</p>
        ) : list.length === 0 ? (
          <p className={styles.muted}>No rules yet.</p>
        ) : (
          <ol className={own.rules}>
            {list.map((r, i) =>
              editing?.rule?.id === r.id ? (
                <li key={r.id}>
                  <RuleEditor rule={r} choices={choices} pending={update.isPending} onSave={save} onCancel={() => setEditing(null)} />
                </li>
              ) : (
                <RuleItem key={r.id} rule={r} index={i} count={list.length} choices={choices} canEdit={canEdit} onEdit={() => setEditing({ rule: r })} />
              ),
            )}
          </ol>
        )}
        {canEdit && editing && !editing.rule ? <RuleEditor rule={null} choices={choices} pending={create.isPending} onSave={save} onCancel={() => setEditing(null)} /> : null}
        {canEdit && !editing ? (
          <button type="button" className={styles.button} onClick={() => setEditing({ rule: null })}>
            New rule
          </button>
        ) : null}
        {org.data && !canEdit ? <p className={styles.muted}>Admins and owners change rules; you can read them and try them with a dry run.</p> : null}
      </section>
    </>
  );
}
