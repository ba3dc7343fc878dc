/** Links to every chat-platform page plus e-mail, each with the platform's colour as a small mark. */
import Link from 'next/link';
import { PLATFORM_NAMES, PLATFORM_SLUGS } from '@/shared/publicRoutes';
import styles from './PlatformBadges.module.css';

export default function PlatformBadges({ label = 'Chat tools ARB posts to', dark = false }: { label?: string; dark?: boolean }) {
  return (
    <ul className={dark ? `${styles.list} ${styles.dark}` : styles.list} aria-label={label}>
      {PLATFORM_SLUGS.map((slug) => (
        <li key={slug}>
          <Link href={`/platform/${slug}`} prefetch={false} className={styles.badge}>
            <span className={`${styles.mark} ${styles[slug.replace('-', '_')]}`} aria-hidden="true" />
            {PLATFORM_NAMES[slug]}
          </Link>
        </li>
      ))}
      <li>
        <Link href="/get-reviews" prefetch={false} className={styles.badge}>
          <span className={`${styles.mark} ${styles.email}`} aria-hidden="true" />
          E-mail
        </Link>
      </li>
    </ul>
  );
}
