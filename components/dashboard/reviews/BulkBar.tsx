/**
 * What to do with the selected reviews at once (POST v1/org/reviews/bulk: one transaction, at most 500 reviews): set a
 * status, an assignee, add or remove a tag. Each choice applies at once and says how many reviews it changed.
 */
import { useId } from 'react';
import toast from '@/lib/hotToast';
import type { OrgMember } from '@/lib/api/org';
import type { Tag, WorkflowChange } from '@/lib/api/workflow';
import { useChangeReviews } from '@/lib/queries/workflow';
import { BULK_MAX_IDS, WORKFLOW_STATUSES, type WorkflowStatus } from '@/shared/workflow';
import { errorToast } from '../common';
import { memberOptions } from './ReviewDetail';
import { statusLabel } from './queue';
import styles from '../Dashboard.module.css';
import own from './Reviews.module.css';

const NOBODY = '__nobody__';

type Option = { value: string; label: string };

/** A labelled select that acts on the choice and goes back to "Choose…": each choice is one change of the selection. */
function Choose({ id, label, options, disabled, onChoose }: { id: string; label: string; options: Option[]; disabled: boolean; onChoose: (value: string) => void }) {
  return (
    <>
      <label htmlFor={id}>{label}</label>
      <select id={id} className={styles.input} value="" disabled={disabled} onChange={(e) => e.target.value && onChoose(e.target.value)}>
        <option value="">Choose…</option>
        {options.map((o) => (
          <option key={o.value} value={o.value}>
            {o.label}
          </option>
        ))}
      </select>
    </>
  );
}

export default function BulkBar({ ids, tags, members, onClear }: { ids: string[]; tags: Tag[]; members: OrgMember[]; onClear: () => void }) {
  const id = useId();
  const bulk = useChangeReviews({
    // One choice sets one thing, so what changed is how many reviews it changed (a tag already there is not counted).
    onSuccess: (r) => toast.success(`${r.changed.toLocaleString('en-US')} review${r.changed === 1 ? '' : 's'} changed`),
    onError: errorToast,
  });
  const apply = (set: WorkflowChange) => bulk.mutate({ ids: ids.slice(0, BULK_MAX_IDS), set });
  const n = ids.length;
  const tagOptions = tags.map((t) => ({ value: t.id, label: t.name }));
  return (
    <div className={own.bulk} role="group" aria-label="Bulk actions" aria-busy={bulk.isPending}>
      <strong>
        {n.toLocaleString('en-US')} selected{n > BULK_MAX_IDS ? ` (the first ${BULK_MAX_IDS} are changed)` : ''}
      </strong>
      <Choose id={`${id}-status`} label="Set status" disabled={bulk.isPending} options={WORKFLOW_STATUSES.map((s) => ({ value: s, label: statusLabel(s) }))} onChoose={(s) => apply({ status: s as WorkflowStatus })} />
      <Choose
        id={`${id}-assignee`}
        label="Assign to"
        disabled={bulk.isPending}
        options={[{ value: NOBODY, label: 'Nobody' }, ...memberOptions(members)]}
        onChoose={(v) => apply({ assignee_id: v === NOBODY ? null : v })}
      />
      <Choose id={`${id}-tag-add`} label="Add tag" disabled={bulk.isPending || !tags.length} options={tagOptions} onChoose={(t) => apply({ tags_add: [t] })} />
      <Choose id={`${id}-tag-remove`} label="Remove tag" disabled={bulk.isPending || !tags.length} options={tagOptions} onChoose={(t) => apply({ tags_remove: [t] })} />
      <button type="button" className={styles.quiet} onClick={onClear}>
        Clear selection
      </button>
    </div>
  );
}
