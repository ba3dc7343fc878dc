/**
 * The closing call to action of a marketing page: find your app on the home page, or compare plans.
 * Marketing links use prefetch={false}: prefetching the app's heavier pages (search, sign-in) while a visitor reads
 * would compete with this page's own start-up on slow phones; Next still prefetches on hover.
 */
import Link from 'next/link';
import buttons from './buttons.module.css';
import styles from './CTA.module.css';

export default function CTA({
  heading = 'See your next review in your channel',
  text = 'Type your app’s name, pick the chat tool your team lives in and paste its webhook. The first reviews arrive within minutes — no credit card, no SDK, nothing to install in your app.',
  dark = false,
}: {
  heading?: string;
  text?: string;
  dark?: boolean;
}) {
  return (
    <section className={dark ? `${styles.cta} ${styles.dark}` : styles.cta} aria-labelledby="cta-heading">
      <div className={styles.inner}>
        <h2 id="cta-heading" className={styles.heading}>
          {heading}
        </h2>
        <p className={styles.text}>{text}</p>
        <div className={styles.actions}>
          <Link href="/" prefetch={false} className={buttons.primary}>
            Search your app
          </Link>
          <Link href="/pricing" prefetch={false} className={dark ? `${buttons.secondary} ${buttons.onDark}` : buttons.secondary}>
            Compare plans
          </Link>
        </div>
      </div>
    </section>
  );
}
