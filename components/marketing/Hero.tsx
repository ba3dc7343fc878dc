/** The top of a marketing page: the page's one h1, a lead paragraph and its calls to action. */
import type { ReactNode } from 'react';
import styles from './Hero.module.css';

export type HeroTone = 'light' | 'blue' | 'dark';

export default function Hero({
  eyebrow,
  heading,
  lead,
  tone = 'blue',
  children,
}: {
  eyebrow?: string | null;
  heading: string;
  lead: string;
  tone?: HeroTone;
  /** Calls to action or anything else under the lead. */
  children?: ReactNode;
}) {
  return (
    <div className={`${styles.hero} ${styles[tone]}`}>
      <div className={styles.inner}>
        {eyebrow ? <p className={styles.eyebrow}>{eyebrow}</p> : null}
        <h1 className={styles.heading}>{heading}</h1>
        <p className={styles.lead}>{lead}</p>
        {children ? <div className={styles.actions}>{children}</div> : null}
      </div>
    </div>
  );
}
