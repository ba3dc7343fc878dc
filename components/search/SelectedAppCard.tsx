/** The app the visitor picked, shown plainly so the next step is clearly about this app. */
import AppIcon from '@/components/common/AppIcon';
import { APP_STORE_NAMES } from '@/shared/appStores';
import { useConnectionStore } from '@/stores/connection';
import styles from './SearchHero.module.css';
import { focusSearchBoxQuietly } from './searchFocus';

export default function SelectedAppCard() {
  const app = useConnectionStore((s) => s.selectedAppDetails);
  const setSelectedAppDetails = useConnectionStore((s) => s.setSelectedAppDetails);
  const setQuery = useConnectionStore((s) => s.setQuery);
  if (!app) return null;
  return (
    <section className={styles.selected} aria-label="Selected app">
      <AppIcon src={app.icon} title={app.title} size={56} className={styles.selectedIcon} fallbackClassName={styles.selectedIconFallback} />
      <div className={styles.selectedText}>
        <p className={styles.selectedLabel}>Selected app</p>
        <p className={styles.selectedTitle}>{app.title}</p>
        <p className={styles.selectedMeta}>
          {app.developer ? `${app.developer} · ` : ''}
          {APP_STORE_NAMES[app.store]}
        </p>
      </div>
      <button
        type="button"
        className={styles.changeButton}
        onClick={() => {
          setSelectedAppDetails(null);
          setQuery('');
          focusSearchBoxQuietly();
        }}
      >
        Choose another app
      </button>
    </section>
  );
}
