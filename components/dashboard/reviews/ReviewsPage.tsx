/**
 * /dashboard/reviews: the organisation's review inbox, newest first, with search and filters kept in the URL query
 * (so a view is shared by its address), cursor pages ("Load more") and the CSV export of the current view.
 */
import dynamic from 'next/dynamic';
import Link from 'next/link';
import { useRouter } from 'next/router';
import { useCallback, useMemo, useState } from 'react';
import type { OrgApp } from '@/lib/api/orgApps';
import type { InboxReview } from '@/lib/api/reviews';
import { REPLY_STATE_WORDS } from '@/shared/replies';
import { filtersFromQuery, type ReviewFilters as Filters } from '@/lib/api/reviewFilters';
import { filtersToQuery, hasFilters } from '@/shared/reviewFilters';
import { useOrgApps } from '@/lib/queries/orgApps';
import { useExportReviews, useReviews } from '@/lib/queries/reviews';
import { storefrontName } from '@/shared/storefronts';
import { date, dateTime, errorToast, Skeleton } from '../common';
import { Stars } from './reviewText';
import Translation from './Translation';
import styles from '../Dashboard.module.css';
import own from './Reviews.module.css';

// rsuite's pickers are loaded with the inbox, after the first paint of the page's frame.
const ReviewFilters = dynamic(() => import('./ReviewFilters'), { ssr: false, loading: () => <Skeleton rows={1} label="Loading the filters" /> });
// The composer (and its templates query) loads when someone first opens it.
const ReplyComposer = dynamic(() => import('./ReplyComposer'), { ssr: false, loading: () => <Skeleton rows={2} label="Loading the reply form" /> });

/** The reply sent through ARB: its state, who sent it and when, why it failed, and whether the review changed since. */
function ReplyStatus({ reply }: { reply: NonNullable<InboxReview['reply']> }) {
  return (
    <>
      <span className={own.badge} data-state={reply.state}>
        {REPLY_STATE_WORDS[reply.state]}
      </span>
      {reply.edited_after_reply ? <span className={own.edited}>Edited after reply</span> : null}
      <span className={own.app}>
        {reply.by ? `${reply.by} · ` : ''}
        <time dateTime={reply.at}>{dateTime(reply.at)}</time>
      </span>
    </>
  );
}

function ReviewCard({ review, app }: { review: InboxReview; app: OrgApp | undefined }) {
  const [composing, setComposing] = useState(false);
  const own_ = review.reply;
  // What the store shows, unless ARB's reply is on its way there (a draft is only in the composer).
  const replyShown = own_ && own_.state !== 'draft' ? (own_.state === 'published' ? (review.reply_text ?? own_.text) : own_.text) : review.reply_text;
  return (
    <article className={own.review} aria-label={`${review.content_rating}-star review by ${review.author_display_name}`}>
      <header className={own.reviewHead}>
        <Stars rating={review.content_rating} />
        {review.edited ? (
          <span className={own.edited}>
            Edited{review.previous_rating !== null ? ` (was ${review.previous_rating} star${review.previous_rating === 1 ? '' : 's'})` : ''}
          </span>
        ) : null}
        <span className={own.app}>{review.title}</span>
      </header>
      {review.content_title ? <h3 className={own.reviewTitle}>{review.content_title}</h3> : null}
      <p className={own.body}>{review.content_body}</p>
      {review.content_body || review.content_title ? <Translation review={review} /> : null}
      <p className={own.meta}>
        <span>{review.author_display_name}</span>
        {review.country ? <span>{storefrontName(review.country)}</span> : null}
        {review.version ? <span>Version {review.version}</span> : null}
        {review.sentiment ? <span>{review.sentiment[0].toUpperCase() + review.sentiment.slice(1)}</span> : null}
        <time dateTime={review.content_updated_at}>{date(review.content_updated_at)}</time>
        <a href={review.store_permalink} target="_blank" rel="noreferrer">
          In the store
        </a>
      </p>
      {replyShown ? (
        <blockquote className={own.reply}>
          <strong>Your reply</strong>
          {!own_ && review.replied_at ? <> · {date(review.replied_at)}</> : null}
          <p>{replyShown}</p>
        </blockquote>
      ) : null}
      {own_?.state === 'failed' && own_.failure ? (
        <p className={own.failure} role="note">
          {own_.failure}
        </p>
      ) : null}
      <div className={own.replyBar}>
        {own_ ? <ReplyStatus reply={own_} /> : null}
        {!composing ? (
          <button type="button" className={styles.quiet} onClick={() => setComposing(true)} aria-label={`${replyShown ? 'Edit reply' : 'Reply'} to ${review.author_display_name}`}>
            {replyShown ? 'Edit reply' : 'Reply'}
          </button>
        ) : null}
      </div>
      {composing ? <ReplyComposer review={review} hasCredentials={!!app?.credentials} onDone={() => setComposing(false)} /> : null}
    </article>
  );
}

function saveFile(file: Blob, name: string) {
  const url = URL.createObjectURL(file);
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

export default function ReviewsPage() {
  const router = useRouter();
  const filters = useMemo(() => filtersFromQuery(router.query), [router.query]);
  const apps = useOrgApps();
  const reviews = useReviews(filters, router.isReady);
  const exporter = useExportReviews({ onSuccess: (file) => saveFile(file, `reviews-${new Date().toISOString().slice(0, 10)}.csv`), onError: errorToast });
  const setFilters = useCallback(
    (next: Filters) => void router.replace({ pathname: router.pathname, query: filtersToQuery(next) }, undefined, { shallow: true, scroll: false }),
    [router],
  );

  const list = reviews.data?.pages.flatMap((p) => p.data) ?? [];
  const noApps = apps.data?.length === 0;
  return (
    <>
      <section className={styles.section} aria-label="Search and filters">
        {apps.data ? <ReviewFilters filters={filters} apps={apps.data} onChange={setFilters} /> : <Skeleton rows={1} label="Loading the filters" />}
        <div className={own.actions}>
          {hasFilters(filters) ? (
            <button type="button" className={styles.quiet} onClick={() => setFilters({})}>
              Clear filters
            </button>
          ) : null}
          <button type="button" className={styles.quiet} disabled={exporter.isPending || noApps} aria-busy={exporter.isPending} onClick={() => exporter.mutate(filters)}>
            Export CSV
          </button>
        </div>
      </section>
      <section aria-label="Reviews" aria-busy={reviews.isFetching}>
        {noApps ? (
          <p className={styles.muted}>
            No apps yet: <Link href="/dashboard/apps">add an app</Link> and its reviews appear here.
          </p>
        ) : reviews.isPending ? (
          <Skeleton rows={4} label="Loading reviews" />
        ) : reviews.isError ? (
          <p role="alert">{reviews.error.message}</p>
        ) : list.length === 0 ? (
          <p className={styles.muted} role="status">
            {hasFilters(filters) ? 'No reviews match this view.' : 'No reviews yet. New reviews of your apps appear here as they are written.'}
          </p>
        ) : (
          <>
            <ol className={own.list}>
              {list.map((r) => (
                <li key={r.id}>
                  <ReviewCard review={r} app={apps.data?.find((a) => a.key === r.app_key)} />
                </li>
              ))}
            </ol>
            {reviews.isFetchingNextPage ? <Skeleton rows={2} label="Loading more reviews" /> : null}
            {reviews.hasNextPage ? (
              <button type="button" className={styles.quiet} disabled={reviews.isFetchingNextPage} onClick={() => void reviews.fetchNextPage()}>
                Load more
              </button>
            ) : null}
          </>
        )}
      </section>
    </>
  );
}
