/**
 * The app page's "Store rating" section: the store's own rating now (with its count and its change over 7 days),
 * the ratings added in the chosen days, and a chart of the store rating per day beside the average of the written
 * reviews (the page's own series), with the same numbers in a table. The store figures come from
 * GET v1/org/apps/{appKey}/ratings (a daily snapshot: a day without one is a gap, not filled in).
 */
import dynamic from 'next/dynamic';
import { useMemo, useState } from 'react';
import type { AppStats } from '@/lib/api/appStats';
import type { AppRatings } from '@/lib/api/storeRatings';
import { useAppRatings } from '@/lib/queries/storeRatings';
import { storefrontName } from '@/shared/storefronts';
import { day, Skeleton } from '../common';
import styles from '../Dashboard.module.css';
import own from './Stats.module.css';
import type { RatingPoint } from './StoreRatingChart';

const StoreRatingChart = dynamic(() => import('./StoreRatingChart'), { ssr: false, loading: () => <Skeleton rows={1} height={240} label="Drawing the chart" /> });

const stars = (v: number | null) => (v === null ? '—' : `${v.toFixed(2)} ★`);
const signed = (v: number | null) => (v === null ? '—' : `${v > 0 ? '+' : v < 0 ? '−' : '±'}${Math.abs(v).toFixed(2)}`);
const count = (v: number | null) => (v === null ? '—' : v.toLocaleString());

/** Both series on one axis of days: the store's days and the review periods' first days, in order. */
function pointsOf(ratings: AppRatings, stats: AppStats): RatingPoint[] {
  const byDay = new Map<string, RatingPoint>();
  const at = (date: string) => byDay.get(date) ?? byDay.set(date, { date, store: null, reviews: null }).get(date)!;
  for (const p of ratings.series) at(p.date).store = p.rating;
  for (const p of stats.series) if (p.average_rating !== null) at(p.start).reviews = p.average_rating;
  return [...byDay.values()].sort((a, b) => (a.date < b.date ? -1 : 1));
}

function RatingsTable({ ratings, visible }: { ratings: AppRatings; visible: boolean }) {
  return (
    <div className={visible ? styles.tableWrap : 'visually-hidden'}>
      <table className={styles.table}>
        <caption className="visually-hidden">The store rating per day</caption>
        <thead>
          <tr>
            <th scope="col">Day</th>
            <th scope="col">Store rating</th>
            <th scope="col">Ratings</th>
            <th scope="col">New ratings</th>
          </tr>
        </thead>
        <tbody>
          {ratings.series.map((p) => (
            <tr key={p.date}>
              <th scope="row">
                <time dateTime={p.date}>{day(p.date)}</time>
              </th>
              <td>{stars(p.rating)}</td>
              <td>{count(p.ratings_count)}</td>
              <td>{p.new_ratings === null ? '—' : p.new_ratings.toLocaleString()}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

export default function StoreRatingPanel({ appKey, stats }: { appKey: string; stats: AppStats }) {
  const ratings = useAppRatings(appKey, { from: stats.from, to: stats.to });
  const [asTable, setAsTable] = useState(false);
  const data = ratings.data;
  const points = useMemo(() => (data ? pointsOf(data, stats) : []), [data, stats]);
  const current = data?.current ?? null;
  const added = data ? data.series.reduce((n, p) => n + (p.new_ratings ?? 0), 0) : 0;
  const storefronts = current?.countries.filter((c) => c.rating !== null) ?? [];
  return (
    <section className={styles.section} aria-labelledby="store-rating-heading">
      <div className={own.figureHead}>
        <h3 id="store-rating-heading" className={styles.sectionTitle}>
          Store rating and review average
        </h3>
        {data && data.series.length > 0 ? (
          <button type="button" className={styles.quiet} aria-pressed={asTable} onClick={() => setAsTable((v) => !v)}>
            Show as table
          </button>
        ) : null}
      </div>
      {ratings.isError ? (
        <p role="alert">{ratings.error.message}</p>
      ) : !data ? (
        <Skeleton rows={2} label="Loading the store rating" />
      ) : (
        <>
          <dl className={own.summary}>
            <div>
              <dt>Store rating</dt>
              <dd>{current ? stars(current.rating) : '—'}</dd>
            </div>
            <div>
              <dt>Ratings in the store</dt>
              <dd>{current ? count(current.ratings_count) : '—'}</dd>
            </div>
            <div>
              <dt>Change over 7 days</dt>
              <dd>{current ? signed(current.change_7d) : '—'}</dd>
            </div>
            <div>
              <dt>New ratings in these days</dt>
              <dd>{data.series.length ? added.toLocaleString() : '—'}</dd>
            </div>
            <div>
              <dt>Review average</dt>
              <dd>{stars(stats.totals.average_rating)}</dd>
            </div>
          </dl>
          <p className={styles.muted}>
            The store rating counts every rating, most of them without a written review, and is read once a day
            {storefronts.length > 1 ? ` (${storefronts.map((c) => storefrontName(c.country)).join(', ')}, each weighted by its number of ratings)` : ''}; the
            review average counts the {stats.totals.reviews.toLocaleString()} written reviews of these days. A day without a reading is left empty.
          </p>
          {current === null ? <p className={styles.muted}>The first reading of the store rating is not in yet: it is taken once a day.</p> : null}
          {data.series.length > 0 && !asTable ? (
            <>
              <ul className={own.legend} aria-hidden="true">
                <li>
                  <span className={own.swatch} style={{ background: '#0f766e' }} />
                  Store rating
                </li>
                <li>
                  <span className={own.swatch} style={{ background: '#4f46e5' }} />
                  Review average per {stats.interval}
                </li>
              </ul>
              <StoreRatingChart points={points} />
            </>
          ) : null}
          {data.series.length > 0 ? <RatingsTable ratings={data} visible={asTable} /> : null}
        </>
      )}
    </section>
  );
}
