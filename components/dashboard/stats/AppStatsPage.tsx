/**
 * /dashboard/apps/{appKey}: an app's ratings and trends for a chosen span — the review count and average rating per day
 * or week (a uPlot chart, loaded only here), the 1–5 distribution, and the average by version and by country. The span
 * lives in the address (`?from=&to=&interval=`), so a view can be shared; every number is also in a table, which
 * screen readers always get and sighted people can switch to. Below: the words and topics of the same days, and a
 * summary of them on request (components/dashboard/insights).
 */
import dynamic from 'next/dynamic';
import Link from 'next/link';
import { useRouter } from 'next/router';
import { useState, type ReactNode } from 'react';
import type { AppStats, StatsSpan } from '@/lib/api/appStats';
import { APP_STORE_NAMES } from '@/shared/appStores';
import { useAppStats } from '@/lib/queries/appStats';
import { storefrontName } from '@/shared/storefronts';
import { day, Skeleton } from '../common';
import { SENTIMENT_COLUMNS, sentimentText } from './sentimentCounts';
import SummaryPanel from '../insights/SummaryPanel';
import StoreRatingPanel from './StoreRatingPanel';
import TermsPanel from '../insights/TermsPanel';
import styles from '../Dashboard.module.css';
import own from './Stats.module.css';
import TagsPerWeek from '../rules/TagsPerWeek';

const TrendChart = dynamic(() => import('./TrendChart'), { ssr: false, loading: () => <Skeleton rows={1} height={280} label="Drawing the chart" /> });

const one = (v: string | string[] | undefined) => (Array.isArray(v) ? v[0] : v);
const isDay = (v: string | undefined): v is string => Boolean(v && /^\d{4}-\d{2}-\d{2}$/.test(v));
const rating = (v: number | null) => (v === null ? '—' : v.toFixed(2));
const dayText = (start: string, interval: AppStats['interval']) => {
  const text = day(start);
  return interval === 'week' ? `Week of ${text}` : text;
};

/** Days shown when the address names none: the last 30 (today included), by week. */
export const DEFAULT_TREND_DAYS = 30;
const daysBefore = (to: string, days: number) => new Date(Date.parse(`${to}T00:00:00Z`) - days * 86_400_000).toISOString().slice(0, 10);

/** The span in the address; without one, the last 30 days by week (the server fills in `to`: today). */
function spanOf(query: Record<string, string | string[] | undefined>): StatsSpan {
  const from = one(query.from);
  const to = one(query.to);
  const interval = one(query.interval);
  const start = isDay(from) ? from : daysBefore(isDay(to) ? to : new Date().toISOString().slice(0, 10), DEFAULT_TREND_DAYS - 1);
  return { from: start, ...(isDay(to) ? { to } : {}), interval: interval === 'day' ? 'day' : 'week' };
}

/** A table whose last column draws each row's share as a bar, beside the number it stands for. */
function BarTable({ caption, head, rows }: { caption: string; head: [string, string, string]; rows: Array<{ key: string; label: ReactNode; value: number; extra: string }> }) {
  const max = Math.max(1, ...rows.map((r) => r.value));
  return (
    <div className={styles.tableWrap}>
      <table className={styles.table}>
        <caption className="visually-hidden">{caption}</caption>
        <thead>
          <tr>
            <th scope="col">{head[0]}</th>
            <th scope="col">{head[1]}</th>
            <th scope="col">{head[2]}</th>
            <th scope="col" className={own.barCell}>
              <span className="visually-hidden">Share</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {rows.map((r) => (
            <tr key={r.key}>
              <th scope="row">{r.label}</th>
              <td>{r.value.toLocaleString()}</td>
              <td>{r.extra}</td>
              <td className={own.barCell}>
                <span className={own.bar} style={{ width: `${(r.value / max) * 100}%` }} aria-hidden="true" />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** A titled card of the page: its heading names the region. */
function Panel({ id, title, children }: { id: string; title: string; children: ReactNode }) {
  return (
    <section className={styles.section} aria-labelledby={id}>
      <h3 id={id} className={styles.sectionTitle}>
        {title}
      </h3>
      {children}
    </section>
  );
}

function SeriesTable({ stats, visible }: { stats: AppStats; visible: boolean }) {
  const unclassified = stats.totals.unclassified > 0;
  return (
    <div className={visible ? styles.tableWrap : 'visually-hidden'}>
      <table className={styles.table}>
        <caption className="visually-hidden">Reviews and average rating per {stats.interval}</caption>
        <thead>
          <tr>
            <th scope="col">{stats.interval === 'week' ? 'Week' : 'Day'}</th>
            <th scope="col">Reviews</th>
            <th scope="col">Average rating</th>
            {SENTIMENT_COLUMNS.map(([key, label]) => (
              <th key={key} scope="col">
                {label}
              </th>
            ))}
            {unclassified ? <th scope="col">Not yet classified</th> : null}
          </tr>
        </thead>
        <tbody>
          {stats.series.map((p) => (
            <tr key={p.start}>
              <th scope="row">
                <time dateTime={p.start}>{dayText(p.start, stats.interval)}</time>
              </th>
              <td>{p.reviews.toLocaleString()}</td>
              <td>{rating(p.average_rating)}</td>
              {SENTIMENT_COLUMNS.map(([key]) => (
                <td key={key}>{p[key]}</td>
              ))}
              {unclassified ? <td>{p.unclassified}</td> : null}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

function Figures({ stats }: { stats: AppStats }) {
  const [asTable, setAsTable] = useState(false);
  const { totals } = stats;
  return (
    <>
      <dl className={own.summary}>
        <div>
          <dt>Reviews</dt>
          <dd>{totals.reviews.toLocaleString()}</dd>
        </div>
        <div>
          <dt>Average rating</dt>
          <dd>{rating(totals.average_rating)}</dd>
        </div>
        <div>
          <dt>Sentiment</dt>
          <dd>{sentimentText(totals)}</dd>
        </div>
      </dl>
      {totals.reviews === 0 ? <p className={styles.muted}>No reviews in these days. Choose a longer span, or wait for new reviews to arrive.</p> : null}

      <section className={styles.section} aria-labelledby="trend-heading">
        <div className={own.figureHead}>
          <h3 id="trend-heading" className={styles.sectionTitle}>
            Reviews and average rating per {stats.interval}
          </h3>
          <button type="button" className={styles.quiet} aria-pressed={asTable} onClick={() => setAsTable((v) => !v)}>
            Show as table
          </button>
        </div>
        {asTable ? null : (
          <>
            <ul className={own.legend} aria-hidden="true">
              <li>
                <span className={own.swatch} style={{ background: '#93c5fd' }} />
                Reviews
              </li>
              <li>
                <span className={own.swatch} style={{ background: '#4f46e5' }} />
                Average rating (1–5)
              </li>
            </ul>
            <TrendChart stats={stats} />
          </>
        )}
        <SeriesTable stats={stats} visible={asTable} />
      </section>

      <div className={own.grid}>
        <Panel id="distribution-heading" title="Ratings">
          <BarTable
            caption="Reviews per star rating"
            head={['Stars', 'Reviews', 'Share']}
            rows={[...stats.distribution].reverse().map((d) => ({
              key: String(d.rating),
              label: `${d.rating} ${d.rating === 1 ? 'star' : 'stars'}`,
              value: d.reviews,
              extra: totals.reviews ? `${Math.round((d.reviews / totals.reviews) * 100)} %` : '—',
            }))}
          />
        </Panel>
        <Panel id="version-heading" title="By version">
          <BarTable
            caption="Reviews and average rating per app version"
            head={['Version', 'Reviews', 'Average']}
            rows={stats.by_version.map((v) => ({ key: v.version ?? '', label: v.version ?? 'Unknown', value: v.reviews, extra: rating(v.average_rating) }))}
          />
        </Panel>
        <Panel id="country-heading" title="By country">
          <BarTable
            caption="Reviews and average rating per country"
            head={['Country', 'Reviews', 'Average']}
            rows={stats.by_country.map((c) => ({ key: c.country ?? '', label: c.country ? storefrontName(c.country) : 'Unknown', value: c.reviews, extra: rating(c.average_rating) }))}
          />
        </Panel>
      </div>
    </>
  );
}

export default function AppStatsPage() {
  const router = useRouter();
  const appKey = router.isReady ? one(router.query.appKey) : undefined;
  const span = spanOf(router.query);
  const stats = useAppStats(appKey, span);
  const setSpan = (change: Partial<StatsSpan>) => {
    const next = { ...span, ...(stats.data ? { from: stats.data.from, to: stats.data.to } : {}), ...change };
    void router.replace({ pathname: router.pathname, query: { appKey, ...next } }, undefined, { shallow: true });
  };
  const shown = stats.data;
  return (
    <>
      <Link href="/dashboard/apps" className={own.back}>
        ← All apps
      </Link>
      {appKey ? (
        <Link href={{ pathname: '/dashboard/ask', query: { app: appKey } }} className={own.back} style={{ marginLeft: 16 }}>
          Ask ARB about this app
        </Link>
      ) : null}
      <section className={styles.section} aria-labelledby="stats-heading">
        <h2 id="stats-heading" className={styles.sectionTitle}>
          {shown ? `${shown.app.title} · ${APP_STORE_NAMES[shown.app.store as keyof typeof APP_STORE_NAMES] ?? shown.app.store}` : 'Ratings and trends'}
        </h2>
        <form className={own.controls} onSubmit={(e) => e.preventDefault()} aria-label="Days shown">
          <div className={styles.field}>
            <label htmlFor="stats-from">From</label>
            <input id="stats-from" type="date" className={styles.input} value={span.from ?? shown?.from ?? ''} max={span.to ?? shown?.to} onChange={(e) => isDay(e.target.value) && setSpan({ from: e.target.value })} />
          </div>
          <div className={styles.field}>
            <label htmlFor="stats-to">To</label>
            <input id="stats-to" type="date" className={styles.input} value={span.to ?? shown?.to ?? ''} min={span.from ?? shown?.from} onChange={(e) => isDay(e.target.value) && setSpan({ to: e.target.value })} />
          </div>
          <div className={styles.field}>
            <label htmlFor="stats-interval">Per</label>
            <select id="stats-interval" className={styles.select} value={span.interval} onChange={(e) => setSpan({ interval: e.target.value === 'week' ? 'week' : 'day' })}>
              <option value="day">Day</option>
              <option value="week">Week</option>
            </select>
          </div>
        </form>
        {stats.isError ? (
          <p role="alert">{stats.error.message}</p>
        ) : !shown ? (
          <Skeleton rows={4} label="Loading the app's figures" />
        ) : (
          <Figures stats={shown} />
        )}
      </section>
      {appKey && shown ? <StoreRatingPanel appKey={appKey} stats={shown} /> : null}
      {appKey && shown ? <TagsPerWeek appKey={appKey} /> : null}
      {appKey && shown ? <TermsPanel appKey={appKey} from={shown.from} to={shown.to} /> : null}
      {appKey && shown ? <SummaryPanel appKey={appKey} period={{ from: shown.from, to: shown.to }} /> : null}
    </>
  );
}
