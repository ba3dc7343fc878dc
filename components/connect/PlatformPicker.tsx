/**
 * Step 1: where the reviews go. Native radio buttons (six on the home page; the dashboard adds Webhook) in a fieldset — arrow keys move between them, the legend names
 * the group — drawn as cards. Slack is chosen by default (docs/PRODUCT.md, Constants).
 */
import { PLATFORMS, type Platform } from '@/shared/appStores';
import styles from './Connect.module.css';
import { PLATFORM_GUIDES } from './platformGuides';

export default function PlatformPicker({
  value,
  onChange,
  name,
  platforms = PLATFORMS,
}: {
  value: Platform;
  onChange: (p: Platform) => void;
  name: string;
  platforms?: readonly Platform[];
}) {
  return (
    <fieldset className={styles.fieldset}>
      <legend className={styles.legend}>Where should the reviews go?</legend>
      <div className={styles.platforms}>
        {platforms.map((p) => (
          <label key={p} className={styles.platform}>
            <input type="radio" name={name} value={p} checked={value === p} onChange={() => onChange(p)} />
            <span className={styles.platformName}>{PLATFORM_GUIDES[p].name}</span>
            <span className={styles.platformHint}>{PLATFORM_GUIDES[p].hint}</span>
          </label>
        ))}
      </div>
    </fieldset>
  );
}
