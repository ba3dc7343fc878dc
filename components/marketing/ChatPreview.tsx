/**
 * A sample review drawn the way ARB's message looks in one chat tool (Slack Block Kit, a Teams Adaptive Card, a
 * Mattermost attachment, a Discord embed, Webex Markdown, a Google Chat card, a Telegram message). Pure HTML and CSS: no screenshots to download.
 */
import type { PlatformSlug } from '@/shared/publicRoutes';
import { PLATFORM_NAMES } from '@/shared/publicRoutes';
import type { ReviewPreview } from './types';
import styles from './ChatPreview.module.css';

const FORMAT: Record<PlatformSlug, string> = {
  slack: 'a Block Kit message',
  'microsoft-teams': 'an Adaptive Card',
  mattermost: 'a message attachment',
  discord: 'an embed',
  webex: 'a Markdown message',
  'google-chat': 'a card in the app’s thread',
  telegram: 'an HTML message',
};

export function stars(rating: number): string {
  return '★'.repeat(rating) + '☆'.repeat(5 - rating);
}

export default function ChatPreview({ platform, review }: { platform: PlatformSlug; review: ReviewPreview }) {
  const name = PLATFORM_NAMES[platform];
  return (
    <figure className={`${styles.figure} ${styles[platform.replace('-', '_')]}`}>
      <div className={styles.window}>
        <div className={styles.sender}>
          <span className={styles.avatar} aria-hidden="true">
            A
          </span>
          <span className={styles.bot}>ARB</span>
          <span className={styles.time}>9:41</span>
        </div>
        <div className={styles.card}>
          <p className={styles.app}>
            New {review.store} review · {review.app}
          </p>
          <p className={styles.title}>
            <span className={styles.stars} role="img" aria-label={`${review.rating} out of 5 stars`}>
              {stars(review.rating)}
            </span>{' '}
            {review.title}
          </p>
          <p className={styles.body}>{review.body}</p>
          <dl className={styles.facts}>
            <div>
              <dt>Author</dt>
              <dd>{review.author}</dd>
            </div>
            <div>
              <dt>Country</dt>
              <dd>{review.country}</dd>
            </div>
            <div>
              <dt>Version</dt>
              <dd>{review.version}</dd>
            </div>
          </dl>
          <p className={styles.actions}>
            <span className={styles.action}>Reply</span>
            <span className={styles.action}>Translate</span>
            <span className={styles.action}>Open in {review.store}</span>
          </p>
        </div>
      </div>
      <figcaption className={styles.caption}>
        How a new review arrives in {name}: {FORMAT[platform]}, with the rating, text, author, country and version.
      </figcaption>
    </figure>
  );
}
