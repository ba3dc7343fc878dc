/**
 * A summary of an app's reviews for the days shown, on request: "Summarise these days" asks the server, which answers
 * at once with the extractive summary (no language model: counts, rating change, terms and quotes from the reviews)
 * or with a pending AI summary that this panel asks for again until it is written. Each is labelled with what it is;
 * every quote opens its review in the inbox.
 */
import Link from 'next/link';
import { useState } from 'react';
import type { InsightPeriod, ReviewSummary } from '@/lib/api/insights';
import { useRequestSummary, useSummary } from '@/lib/queries/insights';
import { day, errorToast, Skeleton } from '../common';
import styles from '../Dashboard.module.css';
import own from './Insights.module.css';
import { termHref } from './TermsPanel';

type Quote = ReviewSummary['content']['quotes'][number];
const stars = (n: number | null) => (n === null ? '—' : n.toFixed(2));
const reviewHref = (id: string) => `/dashboard/reviews?review=${encodeURIComponent(id)}`;

function Quotes({ quotes }: { quotes: Quote[] }) {
  return (
    <>
      {quotes.map((q) => (
        <blockquote key={q.review_id} className={own.quote}>
          <p>“{q.text}”</p>
          <footer>
            {q.rating}★ · <Link href={reviewHref(q.review_id)}>review {q.review_id}</Link> · {q.why}
          </footer>
        </blockquote>
      ))}
    </>
  );
}

function Summary({ s, appKey }: { s: ReviewSummary; appKey: string }) {
  const c = s.content;
  const days = { from: s.from, to: s.to };
  return (
    <article aria-labelledby="summary-title">
      <p id="summary-title">
        <span className={own.label}>{s.label}</span> {day(s.from)} to {day(s.to)}
      </p>
      {s.note ? <p className={styles.muted}>{s.note}</p> : null}
      {s.status === 'pending' ? <p role="status">A language model is writing the summary…</p> : null}
      <dl className={own.actions}>
        <div>
          <dt>Reviews</dt>
          <dd>
            {c.figures.reviews} ({c.previous_figures.reviews} from {day(c.previous.from)} to {day(c.previous.to)})
          </dd>
        </div>
        <div>
          <dt>Average rating</dt>
          <dd>
            {stars(c.figures.average_rating)}
            {c.rating_change === null ? '' : ` (${c.rating_change > 0 ? '+' : ''}${c.rating_change.toFixed(2)})`}
          </dd>
        </div>
      </dl>
      {c.overview ? <p>{c.overview}</p> : null}
      {c.themes.length ? (
        <>
          <h4>Themes</h4>
          {c.themes.map((t) => (
            <section key={t.title} aria-label={t.title}>
              <p>
                <strong>{t.title}</strong> — {t.reviews} of {c.read} reviews read. {t.summary}
              </p>
              <Quotes quotes={t.quotes} />
            </section>
          ))}
        </>
      ) : null}
      {c.changes ? <p>Since the previous period: {c.changes}</p> : null}
      {c.terms.rising.length ? (
        <p>
          Rising:{' '}
          {c.terms.rising.map((t, i) => (
            <span key={t.term}>
              {i ? ', ' : ''}
              <Link href={termHref(appKey, t, days)}>{t.term}</Link> ({t.reviews}, {t.previous_reviews} before)
            </span>
          ))}
        </p>
      ) : null}
      {c.terms.falling.length ? (
        <p>
          Falling:{' '}
          {c.terms.falling.map((t, i) => (
            <span key={t.term}>
              {i ? ', ' : ''}
              <Link href={termHref(appKey, t, c.previous)}>{t.term}</Link> ({t.previous_reviews} before, {t.reviews} now)
            </span>
          ))}
        </p>
      ) : null}
      {c.themes.length === 0 && c.quotes.length ? (
        <>
          <h4>Quotes</h4>
          <Quotes quotes={c.quotes} />
        </>
      ) : null}
    </article>
  );
}

export default function SummaryPanel({ appKey, period }: { appKey: string; period: InsightPeriod }) {
  const [id, setId] = useState<string>();
  const request = useRequestSummary(appKey);
  const summary = useSummary(appKey, id);
  const ask = () =>
    request.mutate(period, {
      onSuccess: (s) => setId(s.id),
      onError: errorToast,
    });
  const shown = summary.data ?? (request.data?.id === id ? request.data : undefined);
  return (
    <section className={styles.section} aria-labelledby="summary-heading">
      <h3 id="summary-heading" className={styles.sectionTitle}>
        Summary
      </h3>
      <div className={own.actions}>
        <button type="button" className={styles.button} onClick={ask} disabled={request.isPending}>
          {request.isPending ? 'Summarising…' : 'Summarise these days'}
        </button>
        <span className={styles.muted}>Counts and quotes come from the stored reviews; with a language model configured, it names the themes.</span>
      </div>
      {summary.isError ? <p role="alert">{summary.error.message}</p> : null}
      {request.isPending && !shown ? <Skeleton rows={3} label="Summarising the reviews" /> : null}
      {shown ? <Summary s={shown} appKey={appKey} /> : null}
    </section>
  );
}
