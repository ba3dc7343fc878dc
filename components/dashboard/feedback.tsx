/** What every dashboard page shows while loading (skeleton rows, no spinner that shifts the layout) and on failure. */
import toast from 'react-hot-toast';
import styles from './Dashboard.module.css';

/** The server's message (ApiError carries it) as an error toast. */
export const errorToast = (e: unknown) => toast.error((e as Error).message || 'Something went wrong. Try again.');

export function Skeleton({ rows = 3, label, height }: { rows?: number; label: string; height?: number }) {
  return (
    <div aria-busy="true" aria-label={label} role="status">
      {Array.from({ length: rows }, (_, i) => (
        <span key={i} className={`${styles.skeleton} ${styles.skeletonRow}`} style={height ? { height } : undefined} />
      ))}
    </div>
  );
}
