/**
 * An app's reviews per tag per week (GET v1/org/apps/{appKey}/tags?weeks=), on its Ratings and trends page: a table,
 * a row per tag and a column per week (Monday, UTC), in a region that scrolls sideways on a narrow screen (focusable
 * and named, so a keyboard can scroll it too).
 */
import Link from 'next/link';
import { useId, useState } from 'react';
import { useAppTagWeeks } from '@/lib/queries/workflow';
import { day, Skeleton } from '../common';
import styles from '../Dashboard.module.css';
import own from './Rules.module.css';

const SPANS = [4, 8, 12] as const;

export default function TagsPerWeek({ appKey }: { appKey: string }) {
  const id = useId();
  const [weeks, setWeeks] = useState<number>(8);
  const counts = useAppTagWeeks(appKey, weeks);
  const data = counts.data;
  return (
    <section className={styles.section} aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`} className={styles.sectionTitle}>
        Reviews per tag
      </h2>
      <div className={styles.field}>
        <label htmlFor={`${id}-weeks`}>Weeks</label>
        <select id={`${id}-weeks`} className={styles.input} value={weeks} onChange={(e) => setWeeks(Number(e.target.value))}>
          {SPANS.map((n) => (
            <option key={n} value={n}>
              Last {n} weeks
            </option>
          ))}
        </select>
      </div>
      {counts.isError ? (
        <p role="alert">{counts.error.message}</p>
      ) : !data ? (
        <Skeleton rows={3} label="Loading the tags per week" />
      ) : data.tags.length === 0 ? (
        <p className={styles.muted}>
          No tagged reviews in these weeks. Tag reviews in the <Link href={`/dashboard/reviews?app=${encodeURIComponent(appKey)}`}>inbox</Link>, or let a{' '}
          <Link href="/dashboard/rules">rule</Link> tag them.
        </p>
      ) : (
        <div className={`${styles.tableWrap} ${own.tagWeeks}`} role="region" aria-labelledby={`${id}-caption`} tabIndex={0}>
          <table className={styles.table}>
            <caption id={`${id}-caption`} className={own.caption}>
              Reviews per tag, week by week (weeks start on Monday)
            </caption>
            <thead>
              <tr>
                <th scope="col">Tag</th>
                {data.weeks.map((w) => (
                  <th key={w} scope="col">
                    <time dateTime={w}>{day(w)}</time>
                  </th>
                ))}
                <th scope="col">Total</th>
              </tr>
            </thead>
            <tbody>
              {data.tags.map((t) => (
                <tr key={t.id}>
                  <th scope="row">
                    <span className={own.swatch} style={{ background: t.color }} aria-hidden="true" />
                    <Link href={`/dashboard/reviews?app=${encodeURIComponent(appKey)}&tag=${encodeURIComponent(t.id)}`}>{t.name}</Link>
                  </th>
                  {t.counts.map((n, i) => (
                    <td key={data.weeks[i]}>{n.toLocaleString('en-US')}</td>
                  ))}
                  <td>{t.counts.reduce((a, b) => a + b, 0).toLocaleString('en-US')}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}
