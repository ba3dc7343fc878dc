/**
 * The light-blue hero of / and /try-free: what ARB does, the search box, and what happens once an app is picked.
 * `children` is the next step of the flow (choosing where the reviews go), rendered under the selected app.
 */
import { useEffect, type ReactNode } from 'react';
import { useConnectionStore } from '@/stores/connection';
import AppSearch from './AppSearch';
import styles from './SearchHero.module.css';
import SelectedAppCard from './SelectedAppCard';
import SignupBanner from './SignupBanner';
import { LinkedApp, linkedAppKey, useAppFromUrl } from './useAppFromUrl';

export type SearchHeroProps = {
  eyebrow?: string;
  heading: string;
  lead: string;
  /** Recorded as the connection's source (where the visitor started). */
  source: string;
  children?: ReactNode;
};

export default function SearchHero({ eyebrow, heading, lead, source, children }: SearchHeroProps) {
  const linked = useAppFromUrl();
  const setConnectionSource = useConnectionStore((s) => s.setConnectionSource);
  const hasSelection = useConnectionStore((s) => s.selectedAppDetails !== null);
  useEffect(() => setConnectionSource(source), [setConnectionSource, source]);

  return (
    <section className={styles.hero} aria-labelledby="hero-heading">
      {linked ? <LinkedApp key={linkedAppKey(linked)} app={linked} /> : null}
      <div className={styles.inner}>
        {eyebrow ? <p className={styles.eyebrow}>{eyebrow}</p> : null}
        <h1 id="hero-heading" className={styles.heading}>
          {heading}
        </h1>
        <p className={styles.lead}>{lead}</p>
        <div className={styles.searchRow}>
          <AppSearch />
        </div>
        <p className={styles.hint}>Free to start · Both stores · No credit card</p>
        <SignupBanner />
        {hasSelection ? (
          <div className={styles.nextStep}>
            <SelectedAppCard />
            {children}
          </div>
        ) : null}
        <p className={styles.proof}>Join hundreds of companies monitoring their app reviews with ARB.</p>
      </div>
    </section>
  );
}
