/**
 * Which App Store storefront's reviews to watch: one country (US by default), or — when `allowAll` — "All countries",
 * meaning the 40 largest storefronts (shared/storefronts.ts says why not all ~175). Google Play needs no choice: its
 * public reviews are not split by country.
 */
import { useId, useMemo } from 'react';
import { ALL_COUNTRIES, MAIN_STOREFRONTS, storefrontOptions } from '@/shared/storefronts';
import styles from './Connect.module.css';

export default function CountryPicker({
  value,
  onChange,
  allowAll = true,
  label = 'Reviews from',
}: {
  /** A storefront code, or 'all'. */
  value: string;
  onChange: (value: string) => void;
  allowAll?: boolean;
  label?: string;
}) {
  const id = useId();
  const options = useMemo(() => storefrontOptions(), []);
  return (
    <div className={styles.field}>
      <label htmlFor={id}>{label}</label>
      <select id={id} value={value} onChange={(e) => onChange(e.target.value)} aria-describedby={`${id}-hint`}>
        {allowAll ? <option value={ALL_COUNTRIES}>All countries ({MAIN_STOREFRONTS.length} largest App Stores)</option> : null}
        {options.map((o) => (
          <option key={o.code} value={o.code}>
            {o.name}
          </option>
        ))}
      </select>
      <p id={`${id}-hint`} className={styles.fieldHint}>
        The App Store keeps reviews per country.{allowAll ? ' “All countries” watches the largest App Stores at once.' : ''}
      </p>
    </div>
  );
}
