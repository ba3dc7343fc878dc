/**
 * The connect flow as the home and try-free pages include it: its code (and React Query's) is downloaded only once an
 * app has been picked, so the landing pages stay light. Rendered in the browser only — it depends on what was picked.
 */
import dynamic from 'next/dynamic';
import styles from './Connect.module.css';

const ConnectFlow = dynamic(() => import('./ConnectFlow'), {
  ssr: false,
  loading: () => (
    <p role="status" className={styles.fieldHint}>
      Loading the next step…
    </p>
  ),
});

export default ConnectFlow;
