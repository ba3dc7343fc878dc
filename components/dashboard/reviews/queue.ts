/**
 * The inbox's review as the support queue reads it: the public review plus its workflow for the organisation (status,
 * why, assignee, tags, how many notes), and the keys of the keyboard flow (documented in the "?" overlay).
 */
import type { InboxReview } from '@/lib/api/reviews';
import type { Tag } from '@/lib/api/workflow';
import { WORKFLOW_STATUS_LABELS, type WorkflowStatus } from '@/shared/workflow';

export type QueueReview = InboxReview & {
  status?: WorkflowStatus;
  status_reason?: string | null;
  assignee?: { id: string; email: string; name?: string | null } | null;
  assignee_id?: string | null;
  tags?: Tag[];
  notes_count?: number;
};

export const statusOf = (r: QueueReview): WorkflowStatus => r.status ?? 'new';
export const statusLabel = (s: WorkflowStatus) => WORKFLOW_STATUS_LABELS[s];
export const assigneeIdOf = (r: QueueReview): string | null => r.assignee?.id ?? r.assignee_id ?? null;

/** The keys of the inbox, in the order the overlay lists them. */
export const INBOX_KEYS: { keys: string[]; what: string }[] = [
  { keys: ['j'], what: 'Next review' },
  { keys: ['k'], what: 'Previous review' },
  { keys: ['r'], what: 'Reply to the review' },
  { keys: ['e'], what: 'Mark the review done' },
  { keys: ['t'], what: 'Tag the review' },
  { keys: ['x'], what: 'Select or unselect the review' },
  { keys: ['?'], what: 'Show these keys' },
];

/** Whether a key press belongs to what has focus (typing in a field, a picker, a dialog), not to the inbox. */
export function keyIsForTheField(e: KeyboardEvent): boolean {
  if (e.ctrlKey || e.metaKey || e.altKey) return true;
  const t = e.target as HTMLElement | null;
  if (!t || !(t instanceof HTMLElement)) return false;
  if (t.isContentEditable) return true;
  if (t.closest('input, textarea, select, [role="combobox"], [role="listbox"], [role="dialog"], [role="alertdialog"], [role="menu"]')) {
    // A checkbox of a row is the inbox's own control.
    return !(t instanceof HTMLInputElement && t.type === 'checkbox' && t.dataset.inboxRow !== undefined);
  }
  return false;
}

const plural = (n: number, one: string) => `${n.toLocaleString('en-US')} ${one}${n === 1 ? '' : 's'}`;

/**
 * The line over the list. The server counts exactly up to 1,000 (COUNT_CAP in server/reviews/data.ts) and beyond says
 * only "more" (`total_is_estimate`), since an exact count of a million reviews is too slow for every page: "1,000+".
 */
export function resultCountText(page: { total?: number | null; total_is_estimate?: boolean } | undefined, shown: number, more: boolean): string {
  const total = page?.total;
  if (total === undefined || total === null) return `${plural(shown, 'review')}${more ? ' shown' : ''}`;
  if (page?.total_is_estimate) return `${(Math.max(total - 1, 1000)).toLocaleString('en-US')}+ reviews`;
  return plural(total, 'review');
}
