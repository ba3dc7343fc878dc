/**
 * Small pieces every dashboard page uses: the loading skeleton, error toasts with the server's message, dates, and the
 * button of an action that cannot be undone.
 */
import Link from 'next/link';
import type { ReactNode } from 'react';
import toast from '@/lib/hotToast';
import styles from './Dashboard.module.css';

/**
 * A refusal as a toast with the server's message. A plan limit (402 plan_limit: the message names the plan that lifts
 * it) also links to the Billing page, where the owner upgrades.
 */
export function errorToast(e: unknown) {
  const message = (e as Error).message || 'Something went wrong. Try again.';
  if ((e as { code?: string }).code !== 'plan_limit') return toast.error(message);
  return toast.error((t) => (
    <span>
      {message}{' '}
      <Link href="/dashboard/billing" onClick={() => toast.dismiss(t.id)}>
        Upgrade
      </Link>
    </span>
  ));
}
// Dates and times in the reader's locale: the one format of lib/formatDate.ts, under the names the pages use.
export { formatDate as date, formatDateTime as dateTime, formatDay as day } from '@/lib/formatDate';

/**
 * Rows of the shape the content will take, so nothing moves when it arrives. To assistive technology it is an
 * indeterminate progress bar named by `label`: a name on a plain div is not allowed (axe: aria-prohibited-attr).
 */
export function Skeleton({ rows = 3, label, height }: { rows?: number; label: string; /** px, when a row stands for something taller (a chart) */ height?: number }) {
  return (
    <div role="progressbar" aria-busy="true" aria-label={label}>
      {Array.from({ length: rows }, (_, i) => (
        <span key={i} className={`${styles.skeleton} ${styles.skeletonRow}`} style={height ? { height } : undefined} />
      ))}
    </div>
  );
}

/** A destructive action's button: it asks `question` first (the browser's own dialog), then runs `onConfirm`. */
export function ConfirmButton(o: { question: string; onConfirm: () => void; pending: boolean; label?: string; children: ReactNode }) {
  return (
    <button
      type="button"
      className={styles.danger}
      aria-label={o.label}
      disabled={o.pending}
      onClick={() => {
        if (window.confirm(o.question)) o.onConfirm();
      }}
    >
      {o.children}
    </button>
  );
}
