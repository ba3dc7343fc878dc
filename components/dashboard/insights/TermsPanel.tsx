/**
 * An app's words and topics on its page: the words and phrases rising and falling against the same number of days
 * before, the critical ones (concentrated in 1–2★ reviews) and the most used, each a link to its reviews in the inbox
 * (the inbox's search over the same app and days, every form of the word), with the sentiment of those reviews.
 */
import Link from 'next/link';
import type { AppTerms, TermItem } from '@/lib/api/insights';
import { useAppTerms } from '@/lib/queries/insights';
import { filtersToQuery } from '@/shared/reviewFilters';
import { day, Skeleton } from '../common';
import styles from '../Dashboard.module.css';
import own from './Insights.module.css';

const percent = (share: number) => `${Math.round(share * 100)} %`;

/** '9 negative, 1 mixed': the sentiment of the reviews using a term, the classes it has. */
export function sentimentLine(s: TermItem['sentiment']): string {
  const parts = (['negative', 'mixed', 'neutral', 'positive'] as const).filter((k) => s[k] > 0).map((k) => `${s[k]} ${k}`);
  return parts.join(', ');
}

type ListKind = 'now' | 'was' | 'critical';

function countText(t: TermItem, kind: ListKind): string {
  if (kind === 'was') return `${t.previous_reviews} reviews (${percent(t.previous_share)}) before, ${t.reviews} (${percent(t.share)}) now`;
  if (kind === 'critical') return `${t.low_reviews} of its ${t.reviews} reviews rated 1–2★`;
  return `${t.reviews} reviews (${percent(t.share)})${t.previous_reviews || t.reviews ? `, ${t.previous_reviews} (${percent(t.previous_share)}) before` : ''}`;
}

/** The inbox listing a term's reviews of the days it was counted in. */
export function termHref(appKey: string, term: Pick<TermItem, 'search'>, days: { from: string; to: string }): string {
  const query = new URLSearchParams(filtersToQuery({ app: [appKey], q: term.search, from: days.from, to: days.to }));
  return `/dashboard/reviews?${query.toString()}`;
}

function TermList({ id, title, empty, terms, appKey, days, kind }: { id: string; title: string; empty: string; terms: TermItem[]; appKey: string; days: { from: string; to: string }; kind: ListKind }) {
  return (
    <section className={own.column} aria-labelledby={id}>
      <h4 id={id} className={own.columnTitle}>
        {title}
      </h4>
      {terms.length === 0 ? (
        <p className={styles.muted}>{empty}</p>
      ) : (
        <ol className={own.terms}>
          {terms.map((t) => {
            const others = t.forms.filter((f) => f !== t.term);
            const feeling = kind === 'was' ? '' : sentimentLine(t.sentiment);
            return (
              <li key={t.key}>
                <Link href={termHref(appKey, t, days)} className={own.term}>
                  {t.term}
                </Link>{' '}
                <span className={own.count}>
                  {countText(t, kind)}
                  {feeling ? ` · ${feeling}` : ''}
                  {others.length ? ` · also “${others.slice(0, 3).join('”, “')}”` : ''}
                </span>
              </li>
            );
          })}
        </ol>
      )}
    </section>
  );
}

function Lists({ data }: { data: AppTerms }) {
  const now = { from: data.from, to: data.to };
  const before = { from: data.previous.from, to: data.previous.to };
  const tooFew = data.reviews === 0 || data.previous.reviews === 0;
  return (
    <>
      <p className={styles.muted}>
        {data.reviews.toLocaleString()} reviews from {day(data.from)} to {day(data.to)}, compared with {data.previous.reviews.toLocaleString()} from {day(data.previous.from)} to{' '}
        {day(data.previous.to)}.{data.capped || data.previous.capped ? ' Busy days: the newest reviews of each period were counted.' : ''}
        {tooFew ? ' Rising and falling need reviews in both periods.' : ''}
      </p>
      <div className={own.columns}>
        <TermList id="terms-rising" title="Rising" empty="Nothing used markedly more than before." terms={data.rising} appKey={data.app.key} days={now} kind="now" />
        <TermList id="terms-critical" title="Critical" empty="No word stands out in the 1–2★ reviews." terms={data.critical} appKey={data.app.key} days={now} kind="critical" />
        <TermList id="terms-falling" title="Falling" empty="Nothing used markedly less than before." terms={data.falling} appKey={data.app.key} days={before} kind="was" />
        <TermList id="terms-top" title="Most mentioned" empty="No word is used by three reviews or more." terms={data.top} appKey={data.app.key} days={now} kind="now" />
      </div>
    </>
  );
}

export default function TermsPanel({ appKey, from, to }: { appKey: string; from?: string; to?: string }) {
  const terms = useAppTerms(appKey, { ...(from ? { from } : {}), ...(to ? { to } : {}) });
  return (
    <section className={styles.section} aria-labelledby="terms-heading">
      <h3 id="terms-heading" className={styles.sectionTitle}>
        Words and topics
      </h3>
      {terms.isError ? (
        <p role="alert">
          {terms.error.message}{' '}
          {(terms.error as { code?: string }).code === 'plan_limit' ? <Link href="/dashboard/billing">Upgrade</Link> : null}
        </p>
      ) : !terms.data ? (
        <Skeleton rows={3} label="Counting the words of the reviews" />
      ) : (
        <Lists data={terms.data} />
      )}
    </section>
  );
}
