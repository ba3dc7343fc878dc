/**
 * A highlighted section under a page's hero: a heading, a paragraph and a list. Pages give it an `id` so a later
 * component can live inside it (the /get-reviews sign-up form, the /ask-arb conversation).
 */
import type { ReactNode } from 'react';
import type { Spotlight } from './types';
import styles from './SpotlightSection.module.css';

export default function SpotlightSection({
  id,
  spotlight,
  dark = false,
  children,
}: {
  id: string;
  spotlight: Spotlight;
  dark?: boolean;
  children?: ReactNode;
}) {
  return (
    <section id={id} className={dark ? `${styles.section} ${styles.dark}` : styles.section} aria-labelledby={`${id}-heading`}>
      <div className={styles.inner}>
        <h2 id={`${id}-heading`} className={styles.heading}>
          {spotlight.heading}
        </h2>
        <p className={styles.text}>{spotlight.text}</p>
        <ul className={styles.items}>
          {spotlight.items.map((item) => (
            <li key={item}>{item}</li>
          ))}
        </ul>
        {children}
      </div>
    </section>
  );
}
