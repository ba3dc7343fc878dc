/** The three steps and the five chat platforms, under the hero of / and /try-free. Static: hydrates as StaticContent. */
import Link from 'next/link';
import StaticContent from '@/components/layout/StaticContent';
import { PLATFORM_NAMES, PLATFORM_SLUGS } from '@/shared/publicRoutes';
import styles from './HowItWorks.module.css';

const STEPS = [
  { title: 'Find your app', text: 'Type its name. ARB searches the App Store and Google Play at once.' },
  { title: 'Choose where reviews go', text: 'A Slack or Discord channel, a Teams, Mattermost or Webex space — or your inbox.' },
  { title: 'Read every new review', text: 'Each review arrives once, with its rating, country and version, within minutes of being posted.' },
];

export default function HowItWorks() {
  return (
    <StaticContent>
      <section className={styles.section} aria-labelledby="how-heading">
        <h2 id="how-heading" className={styles.heading}>
          How it works
        </h2>
        <ol className={styles.steps}>
          {STEPS.map((step, i) => (
            <li key={step.title} className={styles.step}>
              <span className={styles.number} aria-hidden="true">
                {i + 1}
              </span>
              <h3 className={styles.stepTitle}>{step.title}</h3>
              <p className={styles.stepText}>{step.text}</p>
            </li>
          ))}
        </ol>
      </section>
      <section className={styles.section} aria-labelledby="platforms-heading">
        <h2 id="platforms-heading" className={styles.heading}>
          Works where your team already talks
        </h2>
        <ul className={styles.platforms}>
          {PLATFORM_SLUGS.map((slug) => (
            <li key={slug}>
              <Link href={`/platform/${slug}`} className={styles.platform}>
                {PLATFORM_NAMES[slug]}
              </Link>
            </li>
          ))}
          <li>
            <Link href="/get-reviews" className={styles.platform}>
              E-mail
            </Link>
          </li>
        </ul>
        <p className={styles.more}>
          Reply to reviews, follow sentiment and ratings, and ask questions about your reviews with{' '}
          <Link href="/ask-arb">Ask ARB</Link>. <Link href="/features">See all features</Link>.
        </p>
      </section>
    </StaticContent>
  );
}
