/**
 * A rule's dry run (POST v1/org/rules/{id}/test): of the newest reviews of its apps (up to 200), which it would match and
 * what would happen to each; nothing is changed. A table: a row per review, its rating, author, text and the outcome.
 */
import Link from 'next/link';
import type { OrgApp } from '@/lib/api/orgApps';
import type { RuleTest } from '@/lib/api/rules';
import { date } from '../common';
import { Stars } from '../reviews/reviewText';
import styles from '../Dashboard.module.css';
import own from './Rules.module.css';

export default function DryRun({ name, result, apps }: { name: string; result: RuleTest; apps: OrgApp[] }) {
  const caption = `Dry run of “${name}”: ${result.matched.toLocaleString('en-US')} of the last ${result.checked.toLocaleString('en-US')} reviews would match`;
  if (!result.reviews.length)
    return (
      <p role="status" className={own.dryRunNone}>
        {caption}. Nothing would happen.
      </p>
    );
  return (
    <div className={`${styles.tableWrap} ${own.dryRun}`} role="region" aria-label={`Dry run of ${name}`} tabIndex={0}>
      <table className={styles.table}>
        <caption className={own.caption}>{caption}</caption>
        <thead>
          <tr>
            <th scope="col">Review</th>
            <th scope="col">What would happen</th>
          </tr>
        </thead>
        <tbody>
          {result.reviews.map((r) => (
            <tr key={r.review_id}>
              <td>
                <Stars rating={r.rating} /> <strong>{r.author}</strong> · {apps.find((a) => a.key === r.app_key)?.title ?? r.app_key} · {date(r.written_at ?? r.updated_at)}
                <br />
                <Link href={`/dashboard/reviews?review=${encodeURIComponent(r.review_id)}`}>{r.excerpt || '(no text)'}</Link>
              </td>
              <td>
                {r.stopped_by ? (
                  <span>Nothing: the rule “{r.stopped_by.name}” takes it first and stops there.</span>
                ) : (
                  <ul className={own.would}>
                    {r.would.map((w) => (
                      <li key={w}>{w}</li>
                    ))}
                  </ul>
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
