/**
 * One review as one line of the inbox: a checkbox to select it (x), and a button that makes it the current review (its
 * detail beside the list): stars, status, title and text cut to the line with the search words marked, tags, author,
 * app and date.
 */
import { forwardRef } from 'react';
import { date } from '../common';
import Highlight from './Highlight';
import { statusLabel, statusOf, type QueueReview } from './queue';
import { Stars } from './reviewText';
import own from './Reviews.module.css';

type Props = {
  review: QueueReview;
  current: boolean;
  selected: boolean;
  terms: string[];
  onOpen: () => void;
  onSelect: (selected: boolean) => void;
};

const ReviewRow = forwardRef<HTMLButtonElement, Props>(function ReviewRow({ review, current, selected, terms, onOpen, onSelect }, ref) {
  const status = statusOf(review);
  return (
    <div className={own.row} data-current={current || undefined} data-selected={selected || undefined}>
      <input
        type="checkbox"
        className={own.rowCheck}
        data-inbox-row=""
        checked={selected}
        onChange={(e) => onSelect(e.target.checked)}
        aria-label={`Select the review by ${review.author_display_name}`}
      />
      <button type="button" ref={ref} className={own.rowMain} aria-current={current ? 'true' : undefined} onClick={onOpen}>
        <Stars rating={review.content_rating} />
        <span className={own.status} data-status={status}>
          {statusLabel(status)}
        </span>
        <span className={own.rowText}>
          {review.content_title ? (
            <strong>
              <Highlight text={review.content_title} terms={terms} />
            </strong>
          ) : null}
          {review.content_title ? ' ' : null}
          <Highlight text={review.content_body} terms={terms} />
        </span>
        {review.tags?.length ? (
          <span className={own.rowTags}>
            {review.tags.map((t) => (
              <span key={t.id} className={own.tag} style={{ borderColor: t.color }}>
                {t.name}
              </span>
            ))}
          </span>
        ) : null}
        <span className={own.rowMeta}>
          {review.author_display_name} · {review.title} · <time dateTime={review.content_updated_at}>{date(review.content_updated_at)}</time>
        </span>
      </button>
    </div>
  );
});

export default ReviewRow;
