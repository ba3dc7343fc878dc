/** A titled grid of short cards (h2 for the section, h3 per card); a card with `href` links to its page. */
import Link from 'next/link';
import type { GridItem } from './types';
import styles from './FeatureGrid.module.css';

export type { GridItem };

export default function FeatureGrid({
  heading,
  intro,
  items,
  dark = false,
  id,
}: {
  heading: string;
  intro?: string;
  items: GridItem[];
  dark?: boolean;
  id?: string;
}) {
  const headingId = `${id ?? slugify(heading)}-heading`;
  return (
    <section className={dark ? `${styles.section} ${styles.dark}` : styles.section} aria-labelledby={headingId} id={id}>
      <div className={styles.inner}>
        <h2 id={headingId} className={styles.heading}>
          {heading}
        </h2>
        {intro ? <p className={styles.intro}>{intro}</p> : null}
        <ul className={styles.grid}>
          {items.map((item) => (
            <li key={item.title} className={styles.card}>
              <h3 className={styles.title}>
                {item.href ? (
                  <Link href={item.href} prefetch={false} className={styles.link}>
                    {item.title}
                  </Link>
                ) : (
                  item.title
                )}
              </h3>
              <p className={styles.text}>{item.text}</p>
            </li>
          ))}
        </ul>
      </div>
    </section>
  );
}

function slugify(s: string): string {
  return s
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');
}
