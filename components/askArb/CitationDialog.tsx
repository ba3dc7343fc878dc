/**
 * The review an answer cites, opened from its `[n]`: author, stars, date, where it came from, its text, and a link to
 * it in the store. The site's own dialog (focus moves in, Tab stays inside, Escape or a click outside closes, focus
 * goes back to the citation).
 */
import { ModalDialog } from '@/components/common/Modal';
import { formatDate } from '@/lib/formatDate';
import { APP_STORE_NAMES } from '@/shared/appStores';
import type { AskCitation } from '@/shared/askArb';
import styles from './AskChat.module.css';


export function Stars({ rating }: { rating: number }) {
  const n = Math.max(0, Math.min(5, Math.round(rating)));
  return (
    <span className={styles.stars}>
      <span aria-hidden="true">{'★'.repeat(n) + '☆'.repeat(5 - n)}</span>
      <span className="visually-hidden">{`${n} out of 5 stars`}</span>
    </span>
  );
}

function Review({ c }: { c: AskCitation }) {
  const where = [APP_STORE_NAMES[c.app_store], c.country?.toUpperCase(), c.version ? `version ${c.version}` : null].filter(Boolean).join(' · ');
  return (
    <div className={styles.review}>
      <p className={styles.reviewMeta}>
        <Stars rating={c.rating} /> <span>{c.author ?? 'Anonymous'}</span> · <time dateTime={c.date}>{formatDate(c.date)}</time>
      </p>
      <p className={styles.reviewMeta}>{where}</p>
      {c.title ? <p className={styles.reviewTitle}>{c.title}</p> : null}
      <p className={styles.reviewBody}>{c.body}</p>
      {c.permalink?.startsWith('https://') ? (
        <p>
          <a href={c.permalink} target="_blank" rel="noopener noreferrer">
            Open in {APP_STORE_NAMES[c.app_store]}
          </a>
        </p>
      ) : null}
    </div>
  );
}

export default function CitationDialog({ citation, onClose }: { citation: AskCitation | null; onClose: () => void }) {
  return (
    <ModalDialog
      open={citation !== null}
      title={citation ? `Review [${citation.n}]` : ''}
      body={citation ? <Review c={citation} /> : null}
      size="sm"
      backdrop
      role="dialog"
      onClose={onClose}
    />
  );
}
